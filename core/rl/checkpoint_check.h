#pragma once
/// Checks a `.slq` checkpoint before libtorch reads it. A checkpoint is data (the layer tensors,
/// `meta` [magic, format version, features, hidden1, hidden2], optional `preselect` and `skip`),
/// but its container is a TorchScript archive and libtorch's reader compiles the archive's code
/// and runs its pickle: a file someone sends could carry a program or a shape that makes the
/// reader allocate gigabytes. So QNetwork::load hands libtorch only files that pass this check,
/// written without libtorch (and fuzzed: tests/fuzz/fuzz_checkpoint.cpp):
///  - the zip container (checkpoint_zip.h): end records, every entry inside the file and apart
///    from the others, bounded sizes, stored or deflate, each entry's CRC-32;
///  - the entries: one archive folder holding data.pkl, version, constants.pkl (empty),
///    code/__torch__.py (declarations of tensor attributes only: no methods, so nothing to run),
///    its debug_pkl, and one data/<key> per tensor; nothing else;
///  - data.pkl (checkpoint_pickle.h): a module whose attributes are tensors, exactly those the
///    code declares, each storage's entry holding exactly its elements, the tensors contiguous;
///  - the record: meta's magic and a format this build reads, a shape within bounds, every layer
///    tensor present with the shape meta implies, every weight finite, preselect and skip sane.
/// Errors name the file and the fault ("checkpoint tensor fc2.weight holds NaN at index 17 (layer 2
/// weight)", "corrupted checkpoint: entry a/data/3: CRC mismatch ...", "not a schedlab checkpoint:
/// ..."). TorchScript files (`.pt`) are programs and are not checked here (docs/security.md).

#include "base/result.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace schedlab::rl {

/// The meta record's first two values; the torch module writes them (torch_q_network.cpp).
inline constexpr int64_t kCheckpointMagic = 0x51534C42; // "SLBQ"
inline constexpr int64_t kCheckpointFormatVersion = 1;

/// Checkpoints larger than this are refused before they are read (ours are kilobytes).
inline constexpr uint64_t kMaxCheckpointBytes = uint64_t(1) << 30;

/// Checks the checkpoint held in `bytes`; `file` names it in errors.
Status checkCheckpoint(std::string_view bytes, const std::string& file);

/// Reads `path` and checks it.
Status checkCheckpointFile(const std::string& path);

} // namespace schedlab::rl
