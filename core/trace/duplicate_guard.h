#pragma once
/// Detects duplicate ids during an import at O(1) per row while ids arrive in increasing order (the
/// usual case for traces), switching to a hash map of everything seen once the order breaks.
/// Remembers the line of each accepted id so a warning can point at the first occurrence.

#include <cstdint>
#include <functional>
#include <unordered_map>
#include <vector>

namespace schedlab::trace {

template <class Key>
class DuplicateGuard {
public:
    /// keyOf(i) returns the key of the i-th accepted item (used once, when switching to hashing).
    explicit DuplicateGuard(std::function<Key(std::size_t)> keyOf)
        : m_keyOf(std::move(keyOf))
    {
    }
    void reserve(std::size_t n) { m_lines.reserve(n); }

    /// Records `key` seen at `line`. Returns -1 when new, else the line of the earlier occurrence
    /// (the key is then not recorded again).
    int64_t add(const Key& key, int64_t line)
    {
        if (!m_hashed) {
            if (m_lines.empty() || m_last < key) {
                m_last = key;
                m_lines.push_back(uint32_t(line));
                return -1;
            }
            m_hashed = true;
            m_index.reserve(m_lines.size() * 2 + 16);
            for (std::size_t i = 0; i < m_lines.size(); ++i)
                m_index.emplace(m_keyOf(i), uint32_t(i));
        }
        auto [it, inserted] = m_index.emplace(key, uint32_t(m_lines.size()));
        if (!inserted)
            return m_lines[it->second];
        m_lines.push_back(uint32_t(line));
        return -1;
    }

private:
    std::function<Key(std::size_t)> m_keyOf;
    std::vector<uint32_t> m_lines;
    Key m_last {};
    bool m_hashed = false;
    std::unordered_map<Key, uint32_t> m_index;
};

/// Rows in a text file, estimated from the bytes per line seen so far (for reserve()). 0 when the
/// file is compressed or nothing was read yet.
inline std::size_t estimateRows(int64_t fileBytes, int64_t bytesRead, int64_t linesRead, bool compressed)
{
    if (compressed || bytesRead <= 0 || linesRead <= 0)
        return 0;
    const double perLine = double(bytesRead) / double(linesRead);
    return std::size_t(double(fileBytes) / perLine * 1.05) + 16;
}

} // namespace schedlab::trace
