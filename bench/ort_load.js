// ONNX Runtime's session creation plus first run for one model, the peer of OpenCANN's
// aclmdlLoadFromFile-to-first-result (bench/model_latency.py --load). Runs under node with
// the onnxruntime-node module that ../shared/peers/ort-bench installs.
// usage: ORT_NODE_MODULE=... node bench/ort_load.js MODEL.onnx [--threads N]
// prints: ort_load model=... create_ms=X first_run_ms=X
const path = require('path');
const ort = require(process.env.ORT_NODE_MODULE || 'onnxruntime-node');

function feedsFor(session) {
  const feeds = {};
  for (const m of session.inputMetadata) {
    const shape = m.shape.map(d => (typeof d === 'number' && d > 0) ? d : 1);
    const n = shape.reduce((x, y) => x * y, 1);
    if (m.type === 'float32') feeds[m.name] = new ort.Tensor('float32', new Float32Array(n), shape);
    else if (m.type === 'int64') feeds[m.name] = new ort.Tensor('int64', new BigInt64Array(n), shape);
    else if (m.type === 'int32') feeds[m.name] = new ort.Tensor('int32', new Int32Array(n), shape);
    else throw new Error(`input type ${m.type} of ${m.name}`);
  }
  return feeds;
}

(async () => {
  const args = process.argv.slice(2);
  const model = args.find(a => !a.startsWith('--'));
  const ti = args.indexOf('--threads');
  const threads = ti >= 0 ? parseInt(args[ti + 1]) : 1;
  const t0 = process.hrtime.bigint();
  const s = await ort.InferenceSession.create(model, {
    intraOpNumThreads: threads, interOpNumThreads: 1, graphOptimizationLevel: 'all' });
  const t1 = process.hrtime.bigint();
  await s.run(feedsFor(s));
  const t2 = process.hrtime.bigint();
  console.log(`ort_load model=${path.basename(model)} create_ms=${(Number(t1 - t0) / 1e6).toFixed(2)} ` +
    `first_run_ms=${(Number(t2 - t1) / 1e6).toFixed(2)}`);
})().catch(e => { console.error(`ort_load: ${e.message}`); process.exit(1); });
