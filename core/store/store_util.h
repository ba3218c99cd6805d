#pragma once
// Helpers shared by the project's .cpp files (not part of the store's API).

#include <cstdint>
#include <string>

namespace schedlab::store::detail {

/// Current UTC time as ISO 8601 ("2026-12-02T19:59:38Z").
std::string nowUtc();
/// Whether a process with this pid exists on this host.
bool processAlive(int64_t pid);
std::string hostName();

} // namespace schedlab::store::detail
