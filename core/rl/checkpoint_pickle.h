#pragma once
/// Reads the `data.pkl` of a libtorch archive written by `torch::serialize::OutputArchive` (a
/// TorchScript module object whose attributes are tensors) without libtorch: a small pickle
/// machine for the opcodes that pickle uses (protocol 2), which refuses every global but the four
/// a tensor archive names (the module class, `_rebuild_tensor_v2`, the Float/Long storages,
/// `OrderedDict`) and any shape other than {name: tensor, ...}. What it returns says where each
/// tensor's values are (`data/<key>` entry), their type and their shape, so the checker can read
/// them directly.
///
/// Errors are plain messages (no file name): the caller names the file.

#include "base/result.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace schedlab::rl {

struct PickledTensor {
    enum class Type { Float32, Int64 };
    std::string name; ///< attribute name, e.g. "fc2.weight"
    Type type = Type::Float32;
    std::string storageKey; ///< the archive entry data/<storageKey>
    int64_t storageElements = 0; ///< elements in the storage
    int64_t offset = 0; ///< storage offset, in elements
    std::vector<int64_t> sizes;
    std::vector<int64_t> strides;
};

/// Limits on a pickle's size and its number of values (a checkpoint's holds a few dozen).
inline constexpr std::size_t kMaxPickleBytes = 1 << 20;
inline constexpr std::size_t kMaxPickleValues = 100'000;

/// The tensors of the module object in `pickle`, in the order the archive lists them.
Result<std::vector<PickledTensor>> readTensorPickle(std::string_view pickle);

/// True when `pickle` is exactly an empty tuple (the `constants.pkl` of a module without code).
bool isEmptyTuplePickle(std::string_view pickle);

} // namespace schedlab::rl
