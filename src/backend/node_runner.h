// The one runner of nodes outside a compiled program: single nodes and subgraphs on tensors
// the host holds. Control flow (If/Loop/Scan bodies), constant folding and single-op calls
// use it, so every node anywhere is placed by the same rule (the first of the given backends
// that supports it) and a device backend is reached only through its memory and copies.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "backend/backend.h"

namespace oc {

class NodeRunner final : public SubgraphRunner {
 public:
  explicit NodeRunner(std::vector<const Backend*> backends, int num_threads = 1,
                      std::string soc_version = {});

  // Runs `node` on the first backend that supports it for these inputs (null for omitted
  // ones). `output_types` when the caller knows them (constant folding); otherwise they
  // are inferred from the values, the kernel sizing what only the values decide.
  Result<std::vector<Tensor>> RunNode(const Node& node, int64_t opset,
                                      const std::vector<const Tensor*>& inputs,
                                      const std::vector<TensorType>* output_types = nullptr) const;

  Result<std::vector<Tensor>> RunGraph(const Graph& g, int64_t opset,
                                       const std::vector<Tensor>& inputs,
                                       const std::map<std::string, Tensor>& outer) const override;

  const std::vector<const Backend*>& backends() const { return backends_; }

 private:
  std::vector<const Backend*> backends_;
  int num_threads_;
  std::string soc_version_;
};

}  // namespace oc
