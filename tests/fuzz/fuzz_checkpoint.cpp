// libFuzzer target: the checkpoint checker (rl/checkpoint_check.h), the code that stands between a
// `.slq` someone sent and libtorch's archive reader. Any crash, leak, UB or hang is a finding;
// errors are expected outcomes. No libtorch here: the checker never includes it.
// Each input is checked three ways: as it is; with every entry's CRC-32 in the central directory
// recomputed (most mutations break a CRC, and the fuzzer would never get past it to the pickle,
// the tensors and the weights); and as a data.pkl on its own. Every 64th input also goes through
// the file path QNetwork::load uses.

#include "fuzz_common.h"

#include "rl/checkpoint_check.h"
#include "rl/checkpoint_pickle.h"
#include "rl/checkpoint_zip.h"

#include <cstdlib>
#include <cstring>
#include <string_view>
#include <zlib.h>

using namespace schedlab;

namespace {

uint32_t le32(const std::string& b, std::size_t at)
{
    uint32_t v;
    std::memcpy(&v, b.data() + at, 4);
    return v;
}

// The input with each stored entry's CRC in its central directory header set to its data's.
std::string withCrcsFixed(std::string b)
{
    auto entries = rl::readZipDirectory(b);
    if (!entries)
        return b;
    for (std::size_t p = 0; (p = b.find("PK\x01\x02", p)) != std::string::npos && p + 46 <= b.size(); ++p) {
        const std::size_t nameLen = uint16_t(le32(b, p + 28));
        for (const rl::ZipEntry& e : *entries)
            if (e.method == 0 && b.compare(p + 46, nameLen, e.name) == 0 && e.name.size() == nameLen) {
                const uint32_t crc = uint32_t(::crc32_z(0, reinterpret_cast<const Bytef*>(b.data() + e.dataOffset), e.size));
                std::memcpy(b.data() + p + 16, &crc, 4);
            }
    }
    return b;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    const Status asIs = rl::checkCheckpoint(bytes, "fuzz.slq");
    if (!asIs && asIs.error().message.empty())
        std::abort(); // every refusal says why
    if (!asIs && asIs.error().message.find("CRC mismatch") != std::string::npos) {
        const Status fixed = rl::checkCheckpoint(withCrcsFixed(std::string(bytes)), "fuzz.slq");
        if (!fixed && fixed.error().message.empty())
            std::abort();
    }
    (void)rl::readTensorPickle(bytes);
    if (size % 64 == 0) {
        static const std::string path = fuzz::inputPath(".slq");
        if (fuzz::writeInput(path, data, size) && rl::checkCheckpointFile(path).ok() != asIs.ok())
            std::abort(); // the file and the bytes are the same checkpoint
    }
    return 0;
}
