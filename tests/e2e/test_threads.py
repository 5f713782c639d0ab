"""Results agree across thread counts (OCANN_NUM_THREADS)."""
import os
import subprocess
import textwrap

import numpy as np

from conftest import BUILD, PY, atc, export_model


def test_thread_counts_agree(tmp_path):
    onnx_path, x, _ = export_model("bert_encoder", 11)
    assert atc(f"--model={onnx_path}", "--framework=5", f"--output={tmp_path / 'm'}",
               "--soc_version=Ascend910B3", "--input_shape=input_ids:1,128").returncode == 0
    np.save(tmp_path / "x.npy", x)
    code = textwrap.dedent(f"""
        import sys, numpy as np, acl
        sys.path.insert(0, "{os.path.dirname(__file__)}")
        from acl_helpers import OmModel
        acl.init(); acl.rt.set_device(0)
        m = OmModel("{tmp_path / 'm.om'}")
        np.save(sys.argv[1], m.run([np.load("{tmp_path / 'x.npy'}")])[0])
        m.close(); acl.finalize()
        """)
    (tmp_path / "run.py").write_text(code)
    outs = []
    for n in (1, 2, 3):
        env = dict(os.environ, OCANN_NUM_THREADS=str(n), PYTHONPATH=os.path.join(BUILD, "python"))
        out = tmp_path / f"y{n}.npy"
        r = subprocess.run([PY, str(tmp_path / "run.py"), str(out)], env=env, capture_output=True,
                           text=True, timeout=600)
        assert r.returncode == 0, r.stderr
        outs.append(np.load(out))
    for y in outs[1:]:
        rel = np.abs(y - outs[0]).max() / np.abs(outs[0]).max()
        assert rel < 1e-5, rel
