#pragma once
/// Writing JSON text by hand: string literals and a buffered output file (kubectl dumps, decision
/// logs).

#include "base/result.h"

#include <cstdio>
#include <string>
#include <string_view>

namespace schedlab::trace {

/// `s` as a JSON string literal, quotes included (control characters as \uXXXX).
std::string js(std::string_view s);

/// `v` as a JSON number: the shortest decimal text that reads back as `v` (finite values only).
std::string jsNumber(double v);

/// A file written through a 4 MiB buffer; close() reports any failed write with the path.
class JsonFile {
public:
    explicit JsonFile(const std::string& path);
    ~JsonFile();
    JsonFile(const JsonFile&) = delete;
    JsonFile& operator=(const JsonFile&) = delete;
    bool ok() const { return m_file && !m_failed; }
    void put(std::string_view s);
    Status close();

private:
    void flush();
    std::string m_path;
    std::FILE* m_file;
    std::string m_buf;
    bool m_failed = false;
};

} // namespace schedlab::trace
