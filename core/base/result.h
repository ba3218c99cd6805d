#pragma once
/// Result<T>: a value or an Error. The core library reports every failure on user data this way
/// (no exceptions leave the core boundary, no asserts on user data).

#include <cstdint>
#include <string>
#include <utility>
#include <variant>

namespace schedlab {

/// Broad class of an error; callers branch on this, users read the message.
enum class ErrorCode {
    Io, ///< file missing, unreadable, truncated
    Format, ///< content is not what the importer expects (missing column, unknown format)
    Parse, ///< a field could not be parsed
    Range, ///< a value is outside what schedlab supports
    Empty, ///< no data where data is required
    Cancelled, ///< the user cancelled; never shown as a failure
    Invalid, ///< an argument or option is invalid
    Internal, ///< a bug in schedlab (still reported, never aborts)
};

/// Stable lowercase name of an error code, used in JSON output.
const char* errorCodeName(ErrorCode code);

/// A failure with its location. line and column are 1-based; -1 = not applicable.
struct Error {
    ErrorCode code = ErrorCode::Internal;
    std::string message; ///< human text without the location prefix
    std::string file; ///< file the error refers to; empty = none
    int64_t line = -1;
    int column = -1;

    /// "file:line: message" (parts that are unknown are left out).
    std::string toString() const;
    bool isCancelled() const { return code == ErrorCode::Cancelled; }
};

/// Convenience constructor for an error with no location.
inline Error makeError(ErrorCode code, std::string message, std::string file = {}, int64_t line = -1)
{
    return Error { code, std::move(message), std::move(file), line, -1 };
}

/// Holds either a T or an Error. Check ok() before value().
template <class T>
class [[nodiscard]] Result {
public:
    Result(T value)
        : m_data(std::in_place_index<0>, std::move(value))
    {
    }
    Result(Error error)
        : m_data(std::in_place_index<1>, std::move(error))
    {
    }

    bool ok() const { return m_data.index() == 0; }
    explicit operator bool() const { return ok(); }
    T& value() & { return std::get<0>(m_data); }
    const T& value() const& { return std::get<0>(m_data); }
    T&& value() && { return std::get<0>(std::move(m_data)); }
    const Error& error() const { return std::get<1>(m_data); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }

private:
    std::variant<T, Error> m_data;
};

/// Result without a value: success or an Error.
template <>
class [[nodiscard]] Result<void> {
public:
    Result() = default;
    Result(Error error)
        : m_error(std::move(error))
        , m_failed(true)
    {
    }
    bool ok() const { return !m_failed; }
    explicit operator bool() const { return ok(); }
    const Error& error() const { return m_error; }

private:
    Error m_error;
    bool m_failed = false;
};

using Status = Result<void>;

} // namespace schedlab
