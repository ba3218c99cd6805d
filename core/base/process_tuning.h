#pragma once
/// Process-wide tuning done once at startup, before any thread exists.

namespace schedlab {

/// glibc (2.35+) maps malloc's large blocks (the trace arrays, parser buffers, replay state) on
/// transparent huge pages only when its tunable `glibc.malloc.hugetlb=1` is in the environment when
/// the process starts; on VMs the page faults it saves halve import times (a 291 MB kubectl dump:
/// 1.8 s -> 0.75 s). When the kernel offers transparent huge pages and the tunable is not set,
/// this re-executes the program once (/proc/self/exe, same arguments) with it added to
/// GLIBC_TUNABLES; it returns when nothing needs doing or the re-execution fails (then the
/// program just runs without). SCHEDLAB_NO_REEXEC=1 turns it off; under valgrind it does nothing.
void enableMallocHugePages(char** argv);

/// Bytes of the regular files among `args`, folders counted with everything under them (stops
/// counting past `enough`): whether a command's inputs are large enough for the re-execution
/// (~15 ms of loading) to pay.
long long inputBytes(char** args, long long enough);

} // namespace schedlab
