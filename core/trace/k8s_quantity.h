#pragma once
/// Kubernetes resource quantities ("3920m", "4", "1.5", "15Gi", "16000Mi", "1e9", "128974848",
/// "129M") read exactly, as k8s.io/apimachinery's resource.Quantity defines them: an optional
/// sign, a decimal number, and a suffix that is binary SI (Ki Mi Gi Ti Pi Ei), decimal SI
/// (n u m "" k M G T P E) or a decimal exponent (e3, E-2). No floating point: "0.1" cpu is exactly
/// 100 milli-cores.

#include <cstdint>
#include <optional>
#include <string_view>

namespace schedlab::trace {

/// value = mantissa x 10^exp10 x 2^exp2, exactly.
struct Quantity {
    __extension__ using Int = __int128;
    Int mantissa = 0; ///< the digits without the decimal point, signed
    int exp10 = 0;
    int exp2 = 0;
    bool isZero() const { return mantissa == 0; }
    bool isNegative() const { return mantissa < 0; }
};

/// Rounding when a quantity is scaled to an integer unit.
enum class Round { Up, Down };

/// Parses a quantity; nullopt when `text` is not one (or its exponent is absurd: |e| > 30).
std::optional<Quantity> parseQuantity(std::string_view text);

/// The quantity in units of 10^unitExp10 x 2^unitExp2, rounded as asked (Kubernetes rounds
/// requests up: MilliValue() of "0.0001" is 1). nullopt when it does not fit in int64.
std::optional<int64_t> scaledQuantity(const Quantity& q, int unitExp10, int unitExp2, Round round);

/// cpu in milli-cores, rounded up.
inline std::optional<int64_t> milliCores(const Quantity& q) { return scaledQuantity(q, -3, 0, Round::Up); }
/// memory in MiB (2^20 bytes), rounded as asked (requests up, capacities down).
inline std::optional<int64_t> mebibytes(const Quantity& q, Round round) { return scaledQuantity(q, 0, 20, round); }
/// a count (GPUs, pods), rounded up.
inline std::optional<int64_t> wholeUnits(const Quantity& q) { return scaledQuantity(q, 0, 0, Round::Up); }

} // namespace schedlab::trace
