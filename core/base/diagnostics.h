#pragma once
/// Counted, line-numbered warnings collected during an import (or any long operation).

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace schedlab {

/// One recoverable problem. line is 1-based, -1 = not tied to a line.
struct Warning {
    std::string category; ///< stable short key, e.g. "bad-number", "duplicate-id"
    std::string file;
    int64_t line = -1;
    std::string field; ///< column name or JSON pointer ("/items/3/spec/nodeName"), empty = whole row
    std::string message;

    /// "file:line: column X: message", "file: /items/3/spec/nodeName: message"
    std::string toString() const;
};

/// Keeps the first kMaxKept warnings in full and counts all of them per category.
/// Not thread-safe; one instance per import.
class Diagnostics {
public:
    static constexpr std::size_t kMaxKept = 100;

    void warn(std::string category, std::string file, int64_t line, std::string field, std::string message);
    /// Add an aggregate warning count without keeping a row.
    void count(const std::string& category, int64_t n = 1);
    /// Informational count that is not a warning (e.g. "requested time fell back to run time").
    void note(const std::string& category, int64_t n = 1) { m_notes[category] += n; }
    const std::map<std::string, int64_t>& notes() const { return m_notes; }
    void merge(const Diagnostics& other);

    int64_t total() const { return m_total; }
    const std::vector<Warning>& kept() const { return m_kept; }
    const std::map<std::string, int64_t>& byCategory() const { return m_byCategory; }
    int64_t countOf(const std::string& category) const;

private:
    std::vector<Warning> m_kept;
    std::map<std::string, int64_t> m_byCategory;
    std::map<std::string, int64_t> m_notes;
    int64_t m_total = 0;
};

} // namespace schedlab
