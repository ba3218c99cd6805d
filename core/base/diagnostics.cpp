#include "diagnostics.h"

namespace schedlab {

std::string Warning::toString() const
{
    std::string out;
    if (!file.empty()) {
        out += file;
        if (line >= 0)
            out += ':' + std::to_string(line);
        out += ": ";
    }
    if (!field.empty()) // a JSON pointer ("/items/3/spec") names itself; a column is named as one
        out += (field[0] == '/' ? "" : "column ") + field + ": ";
    out += message;
    return out;
}

void Diagnostics::warn(std::string category, std::string file, int64_t line, std::string field, std::string message)
{
    ++m_total;
    ++m_byCategory[category];
    if (m_kept.size() < kMaxKept)
        m_kept.push_back(Warning { std::move(category), std::move(file), line, std::move(field), std::move(message) });
}

void Diagnostics::count(const std::string& category, int64_t n)
{
    m_total += n;
    m_byCategory[category] += n;
}

void Diagnostics::merge(const Diagnostics& other)
{
    for (const Warning& w : other.m_kept)
        if (m_kept.size() < kMaxKept)
            m_kept.push_back(w);
    for (const auto& [category, n] : other.m_byCategory)
        m_byCategory[category] += n;
    for (const auto& [category, n] : other.m_notes)
        m_notes[category] += n;
    m_total += other.m_total;
}

int64_t Diagnostics::countOf(const std::string& category) const
{
    auto it = m_byCategory.find(category);
    return it == m_byCategory.end() ? 0 : it->second;
}

} // namespace schedlab
