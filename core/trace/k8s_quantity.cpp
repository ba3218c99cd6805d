#include "k8s_quantity.h"

#include <cstdlib>

namespace schedlab::trace {

namespace {

using Int = Quantity::Int;
constexpr int kMaxDigits = 36; // |mantissa| < 10^36 < 2^127
constexpr int kMaxExponent = 30;

bool isDigit(char c) { return c >= '0' && c <= '9'; }

// Multiplies in place by base^n; false on overflow past `limit`.
bool scaleUp(Int& v, int base, int n)
{
    const Int limit = (Int(1) << 125);
    for (int i = 0; i < n; ++i) {
        if (v > limit / base)
            return false;
        v *= base;
    }
    return true;
}

} // namespace

std::optional<Quantity> parseQuantity(std::string_view s)
{
    std::size_t i = 0;
    bool negative = false;
    if (i < s.size() && (s[i] == '+' || s[i] == '-'))
        negative = s[i++] == '-';
    Int mantissa = 0;
    int digits = 0, fraction = 0;
    bool anyDigit = false, point = false;
    for (; i < s.size(); ++i) {
        if (isDigit(s[i])) {
            anyDigit = true;
            if (mantissa == 0 && s[i] == '0') { // leading zeros carry no precision
                if (point)
                    ++fraction;
                continue;
            }
            if (++digits > kMaxDigits)
                return std::nullopt;
            mantissa = mantissa * 10 + (s[i] - '0');
            if (point)
                ++fraction;
        } else if (s[i] == '.' && !point) {
            point = true;
        } else {
            break;
        }
    }
    if (!anyDigit)
        return std::nullopt;
    Quantity q;
    q.mantissa = negative ? -mantissa : mantissa;
    q.exp10 = -fraction;
    const std::string_view suffix = s.substr(i);
    if (suffix.empty())
        return q;
    if (suffix.size() == 2 && suffix[1] == 'i') {
        static const std::string_view binary = "KMGTPE";
        const auto at = binary.find(suffix[0]);
        if (at == std::string_view::npos)
            return std::nullopt;
        q.exp2 = 10 * int(at + 1);
        return q;
    }
    if (suffix.size() == 1) {
        switch (suffix[0]) {
        case 'n': q.exp10 -= 9; return q;
        case 'u': q.exp10 -= 6; return q;
        case 'm': q.exp10 -= 3; return q;
        case 'k': q.exp10 += 3; return q;
        case 'M': q.exp10 += 6; return q;
        case 'G': q.exp10 += 9; return q;
        case 'T': q.exp10 += 12; return q;
        case 'P': q.exp10 += 15; return q;
        case 'E': q.exp10 += 18; return q;
        default: return std::nullopt;
        }
    }
    if (suffix[0] == 'e' || suffix[0] == 'E') { // decimal exponent: e3, E-2, e+6
        std::size_t j = 1;
        bool negExp = false;
        if (j < suffix.size() && (suffix[j] == '+' || suffix[j] == '-'))
            negExp = suffix[j++] == '-';
        if (j == suffix.size())
            return std::nullopt;
        int e = 0;
        for (; j < suffix.size(); ++j) {
            if (!isDigit(suffix[j]) || e > 1000)
                return std::nullopt;
            e = e * 10 + (suffix[j] - '0');
        }
        if (e > kMaxExponent)
            return std::nullopt;
        q.exp10 += negExp ? -e : e;
        return q;
    }
    return std::nullopt;
}

std::optional<int64_t> scaledQuantity(const Quantity& q, int unitExp10, int unitExp2, Round round)
{
    const int a = q.exp10 - unitExp10, b = q.exp2 - unitExp2;
    if (std::abs(a) > 60 || std::abs(b) > 120)
        return std::nullopt;
    Int num = q.mantissa < 0 ? -q.mantissa : q.mantissa;
    Int den = 1;
    if (!scaleUp(num, 10, a > 0 ? a : 0) || !scaleUp(num, 2, b > 0 ? b : 0))
        return std::nullopt;
    if (!scaleUp(den, 10, a < 0 ? -a : 0) || !scaleUp(den, 2, b < 0 ? -b : 0)) {
        // The unit is so much larger than the number (num <= 2^125 < den): |value| < 1.
        if (num == 0)
            return 0;
        if (q.mantissa > 0)
            return round == Round::Up ? 1 : 0;
        return round == Round::Up ? 0 : -1;
    }
    Int whole = num / den;
    const bool rest = num % den != 0;
    if (q.mantissa >= 0) {
        if (rest && round == Round::Up)
            ++whole;
    } else {
        if (rest && round == Round::Down)
            ++whole;
        whole = -whole;
    }
    if (whole > Int(INT64_MAX) || whole < Int(INT64_MIN))
        return std::nullopt;
    return int64_t(whole);
}

} // namespace schedlab::trace
