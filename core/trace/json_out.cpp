#include "json_out.h"

#include <cerrno>
#include <charconv>
#include <cstring>

namespace schedlab::trace {

std::string js(std::string_view s)
{
    std::string out = "\"";
    for (char c : s) {
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
            if (static_cast<unsigned char>(c) < 0x20) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", c);
                out += buf;
            } else {
                out += c;
            }
        }
    }
    return out + "\"";
}

std::string jsNumber(double v)
{
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, r.ptr);
}

JsonFile::JsonFile(const std::string& path)
    : m_path(path)
    , m_file(std::fopen(path.c_str(), "wb"))
{
}

JsonFile::~JsonFile()
{
    if (m_file)
        std::fclose(m_file);
}

void JsonFile::put(std::string_view s)
{
    m_buf += s;
    if (m_buf.size() > (std::size_t(4) << 20))
        flush();
}

Status JsonFile::close()
{
    flush();
    const bool closed = m_file && std::fclose(m_file) == 0;
    m_file = nullptr;
    if (m_failed || !closed)
        return makeError(ErrorCode::Io, std::string("cannot write: ") + std::strerror(errno), m_path);
    return {};
}

void JsonFile::flush()
{
    if (m_file && !m_buf.empty() && std::fwrite(m_buf.data(), 1, m_buf.size(), m_file) != m_buf.size())
        m_failed = true;
    m_buf.clear();
}

} // namespace schedlab::trace
