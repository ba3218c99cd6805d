#pragma once
/// Walking simdjson On-Demand values for the Kubernetes JSON reader (k8s_json.cpp): an object's
/// fields and an array's elements, each handed to a callback that returns false to stop. A value
/// of another type than expected is skipped (nothing to read there); a JSON error is recorded in
/// the Reader with its pointer and stops the walk. Internal to core/trace.

#include "k8s_json_reader.h"

#include <simdjson.h>

#include <string>
#include <string_view>

namespace schedlab::trace::k8sjson {

// Iterates an object's fields: fn(key, value) returns false to stop on a fatal error.
template <class Fn>
bool fields(od::value v, Reader& r, const std::string& at, Fn fn)
{
    od::object obj;
    error_code e = v.get_object().get(obj);
    if (e == simdjson::INCORRECT_TYPE)
        return true; // not an object where one is expected: nothing to read here
    if (e) {
        r.fail(e, at);
        return false;
    }
    for (auto f : obj) {
        od::field field;
        if ((e = std::move(f).get(field))) {
            r.fail(e, at);
            return false;
        }
        // The key as written, without unescaping it into the parser's string buffer (that writes
        // every key of the document once more); only a key with an escape is unescaped.
        std::string_view key;
        const char* raw = field.key().raw();
        const char* end = raw;
        while (*end != '"' && *end != '\\')
            ++end;
        if (*end == '"')
            key = std::string_view(raw, std::size_t(end - raw));
        else if ((e = field.unescaped_key().get(key))) {
            r.fail(e, at);
            return false;
        }
        if (!fn(key, field.value()))
            return false;
    }
    return true;
}

// Iterates an array: fn(index, value).
template <class Fn>
bool elements(od::value v, Reader& r, const std::string& at, Fn fn)
{
    od::array arr;
    error_code e = v.get_array().get(arr);
    if (e == simdjson::INCORRECT_TYPE)
        return true;
    if (e) {
        r.fail(e, at);
        return false;
    }
    std::size_t i = 0;
    for (auto x : arr) {
        od::value child;
        if ((e = std::move(x).get(child))) {
            r.fail(e, at);
            return false;
        }
        if (!fn(i++, child))
            return false;
    }
    return true;
}

} // namespace schedlab::trace::k8sjson
