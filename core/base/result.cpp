#include "result.h"

namespace schedlab {

const char* errorCodeName(ErrorCode code)
{
    switch (code) {
    case ErrorCode::Io: return "io";
    case ErrorCode::Format: return "format";
    case ErrorCode::Parse: return "parse";
    case ErrorCode::Range: return "range";
    case ErrorCode::Empty: return "empty";
    case ErrorCode::Cancelled: return "cancelled";
    case ErrorCode::Invalid: return "invalid";
    case ErrorCode::Internal: return "internal";
    }
    return "internal";
}

std::string Error::toString() const
{
    std::string out;
    if (!file.empty()) {
        out += file;
        if (line >= 0) {
            out += ':';
            out += std::to_string(line);
            if (column >= 0) {
                out += ':';
                out += std::to_string(column);
            }
        }
        out += ": ";
    }
    out += message;
    return out;
}

} // namespace schedlab
