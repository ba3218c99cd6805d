#pragma once
// Shared by the libFuzzer targets: the importers read files, so each input is written to a
// per-process file in /dev/shm (memory-backed) and read back through the real code path.

#include <cstdint>
#include <cstdio>
#include <string>
#include <unistd.h>

namespace schedlab::fuzz {

inline std::string inputPath(const char* suffix)
{
    static const std::string dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    return dir + "/schedlab-fuzz-" + std::to_string(::getpid()) + suffix;
}

inline bool writeInput(const std::string& path, const uint8_t* data, std::size_t size)
{
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f)
        return false;
    const bool ok = std::fwrite(data, 1, size, f) == size;
    return std::fclose(f) == 0 && ok;
}

} // namespace schedlab::fuzz
