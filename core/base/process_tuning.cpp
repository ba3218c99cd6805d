#include "process_tuning.h"

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace schedlab {

void enableMallocHugePages(char** argv)
{
    const char* tunables = std::getenv("GLIBC_TUNABLES");
    if (std::getenv("SCHEDLAB_NO_REEXEC") || (tunables && std::strstr(tunables, "glibc.malloc.hugetlb")))
        return;
    if (const char* preload = std::getenv("LD_PRELOAD"); preload && std::strstr(preload, "vgpreload"))
        return; // valgrind: its own allocator, and its own idea of /proc/self/exe
    std::ifstream thp("/sys/kernel/mm/transparent_hugepage/enabled");
    std::string mode;
    std::getline(thp, mode);
    if (mode.find("[always]") == std::string::npos && mode.find("[madvise]") == std::string::npos)
        return; // no transparent huge pages: nothing to gain
    const std::string value = tunables && *tunables ? std::string(tunables) + ":glibc.malloc.hugetlb=1" : "glibc.malloc.hugetlb=1";
    if (::setenv("GLIBC_TUNABLES", value.c_str(), 1) != 0)
        return;
    ::execv("/proc/self/exe", argv);
    // Still here: the re-execution failed; run as we are (and keep children from trying again).
    ::setenv("SCHEDLAB_NO_REEXEC", "1", 1);
}

long long inputBytes(char** args, long long enough)
{
    long long total = 0;
    for (char** a = args; *a && total < enough; ++a) {
        std::error_code ec;
        const std::filesystem::path p(*a);
        if (std::filesystem::is_regular_file(p, ec)) {
            total += (long long)std::filesystem::file_size(p, ec);
        } else if (std::filesystem::is_directory(p, ec)) {
            for (auto it = std::filesystem::recursive_directory_iterator(p, ec); !ec && it != std::filesystem::recursive_directory_iterator()
                 && total < enough;
                 it.increment(ec))
                if (it->is_regular_file(ec))
                    total += (long long)it->file_size(ec);
        }
    }
    return total;
}

} // namespace schedlab
