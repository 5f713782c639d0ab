// atc's flag table (tests/e2e/test_atc_flags.py reads kKnownFlags from this file).
#include "cli/atc_flags.h"

namespace oc {
namespace {

const std::set<std::string> kKnownFlags = {"mode",
                                           "model",
                                           "weight",
                                           "framework",
                                           "output",
                                           "soc_version",
                                           "input_shape",
                                           "input_format",
                                           "out_nodes",
                                           "output_type",
                                           "precision_mode",
                                           "precision_mode_v2",
                                           "customize_dtypes",
                                           "insert_op_conf",
                                           "input_fp16_nodes",
                                           "keep_dtype",
                                           "modify_mixlist",
                                           "fusion_switch_file",
                                           "op_select_implmode",
                                           "optypelist_for_implmode",
                                           "op_precision_mode",
                                           "allow_hf32",
                                           "log",
                                           "disable_reuse_memory",
                                           "om",
                                           "json",
                                           "check_report",
                                           "dynamic_batch_size",
                                           "dynamic_image_size",
                                           "dynamic_dims",
                                           "help",
                                           "h",
                                           "host_env_os",
                                           "host_env_cpu",
                                           "enable_small_channel",
                                           "buffer_optimize",
                                           "is_input_adjust_hw_layout",
                                           "is_output_adjust_hw_layout",
                                           "op_debug_level",
                                           "save_original_model",
                                           "dump_mode",
                                           "singleop"};

const std::set<std::string> kBooleanFlags = {"help", "h"};

}  // namespace

const std::set<std::string>& AtcFlagNames() { return kKnownFlags; }

const std::set<std::string>& AtcBooleanFlags() { return kBooleanFlags; }

Result<Flags> ParseAtcFlags(int argc, char** argv) {
  return Flags::Parse(argc, argv, kKnownFlags, kBooleanFlags);
}

}  // namespace oc
