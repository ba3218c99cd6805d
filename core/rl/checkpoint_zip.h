#pragma once
/// A strict reader of the zip container libtorch writes (miniz, PyTorchStreamWriter), for checking
/// a checkpoint before libtorch sees it (checkpoint_check.h). It reads the central directory
/// (zip64 records too), refuses entries outside the file, overlapping entries, duplicate names,
/// sizes past the limits below and methods other than stored and deflate, and checks each
/// entry's CRC-32 when the entry is read. No libtorch; zlib for CRC-32 and inflate.
///
/// Errors are plain messages (no file name): the caller names the file.

#include "base/result.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace schedlab::rl {

struct ZipEntry {
    std::string name;
    int method = 0; ///< 0 stored, 8 deflate
    uint32_t crc = 0; ///< from the central directory
    uint64_t compressedSize = 0;
    uint64_t size = 0; ///< uncompressed
    uint64_t localOffset = 0; ///< the local header
    uint64_t dataOffset = 0; ///< the first byte of the (compressed) data
};

/// Limits: a deflated entry inflates to at most this (the TorchScript declarations are < 1 KiB),
/// and an archive holds at most kMaxZipEntries entries.
inline constexpr uint64_t kMaxInflatedBytes = 1 << 20;
inline constexpr std::size_t kMaxZipEntries = 4096;

/// The entries of the archive held in `bytes`, in central-directory order, every data range
/// checked to lie inside the file and apart from the others.
Result<std::vector<ZipEntry>> readZipDirectory(std::string_view bytes);

/// The entry's data (inflated if deflated), after checking its CRC-32 against the directory's.
Result<std::string> readZipEntry(std::string_view bytes, const ZipEntry& entry);

/// Stored entries only: a view of the data in `bytes`, its CRC-32 checked. No copy.
Result<std::string_view> storedZipEntry(std::string_view bytes, const ZipEntry& entry);

} // namespace schedlab::rl
