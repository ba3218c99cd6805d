// libFuzzer target for opening a project file: any bytes must give a project or a clear error,
// never a crash or a write to the file.

#include "fuzz_common.h"

#include "store/project.h"

#include <cstring>
#include <fstream>
#include <sstream>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    static const std::string path = schedlab::fuzz::inputPath(".schedlab");
    std::remove((path + "-wal").c_str());
    std::remove((path + "-shm").c_str());
    if (!schedlab::fuzz::writeInput(path, data, size))
        return 0;
    {
        auto p = schedlab::store::Project::open(path, schedlab::store::Project::OpenMode::ReadOnly);
        if (p) {
            auto runs = p.value()->runs();
            if (runs)
                for (const auto& r : runs.value())
                    (void)p.value()->summary(r.id);
        }
    }
    // Read-only open must leave the bytes as they were.
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string after = ss.str();
    if (after.size() != size || (size && std::memcmp(after.data(), data, size) != 0))
        __builtin_trap();
    return 0;
}
