#include "reward.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <sstream>

namespace schedlab::rl {

const char* customTermName(CustomTerm t)
{
    switch (t) {
    case CustomTerm::Energy:
        return "energy";
    case CustomTerm::Fragmentation:
        return "fragmentation";
    case CustomTerm::Wait:
        return "wait";
    }
    return "?";
}

std::array<double, 4> RewardConfig::normalised() const
{
    const double sum = balance + packing + success + custom;
    if (!(sum > 0))
        return { 0, 0, 0, 0 };
    return { balance / sum, packing / sum, success / sum, custom / sum };
}

std::string RewardConfig::toString() const
{
    std::ostringstream s;
    s << "balance=" << balance << ",packing=" << packing << ",success=" << success << ",custom=" << custom
      << ",customTerm=" << customTermName(customTerm) << ",p99Target=" << p99TargetS << ",tailScale=" << tailScale
      << ",tailRate=" << tailRate << ",tailCap=" << tailCap;
    if (roomCost != 0.5)
        s << ",roomCost=" << roomCost;
    return s.str();
}

Result<RewardConfig> RewardConfig::parse(const std::string& text, RewardConfig c)
{
    std::stringstream in(text);
    std::string item;
    while (std::getline(in, item, ',')) {
        if (item.empty())
            continue;
        const auto eq = item.find('=');
        if (eq == std::string::npos)
            return makeError(ErrorCode::Invalid, "reward weights: '" + item + "' is not key=value");
        const std::string key = item.substr(0, eq), value = item.substr(eq + 1);
        if (key == "customTerm") {
            if (value == "energy")
                c.customTerm = CustomTerm::Energy;
            else if (value == "fragmentation")
                c.customTerm = CustomTerm::Fragmentation;
            else if (value == "wait")
                c.customTerm = CustomTerm::Wait;
            else
                return makeError(ErrorCode::Invalid, "reward weights: customTerm '" + value + "' is not energy, fragmentation or wait");
            continue;
        }
        char* end = nullptr;
        const double v = std::strtod(value.c_str(), &end);
        if (value.empty() || end != value.c_str() + value.size() || !std::isfinite(v) || v < 0)
            return makeError(ErrorCode::Invalid, "reward weights: " + key + " = '" + value + "' is not a finite number >= 0");
        if (key == "balance")
            c.balance = v;
        else if (key == "packing")
            c.packing = v;
        else if (key == "success")
            c.success = v;
        else if (key == "custom")
            c.custom = v;
        else if (key == "p99Target" && v > 0)
            c.p99TargetS = v;
        else if (key == "tailScale")
            c.tailScale = v;
        else if (key == "tailRate")
            c.tailRate = v;
        else if (key == "tailCap")
            c.tailCap = v;
        else if (key == "roomCost")
            c.roomCost = v;
        else
            return makeError(ErrorCode::Invalid, "reward weights: unknown key '" + key
                    + "' (balance, packing, success, custom, customTerm, p99Target > 0, tailScale, tailRate, tailCap, roomCost)");
    }
    if (!(c.balance + c.packing + c.success + c.custom > 0))
        return makeError(ErrorCode::Invalid, "reward weights: at least one of balance, packing, success, custom must be > 0");
    return c;
}

Result<RewardConfig> RewardConfig::preset(const std::string& name)
{
    RewardConfig c;
    if (name == "default")
        return c;
    if (name == "latency-first") {
        c.balance = 0.1;
        c.packing = 0.1;
        c.success = 0.4;
        c.custom = 0.4;
        c.customTerm = CustomTerm::Wait;
        c.tailScale = 2.0;
        return c;
    }
    if (name == "packing-first") {
        c.balance = 0.1;
        c.packing = 0.5;
        c.success = 0.3;
        c.custom = 0.1;
        c.customTerm = CustomTerm::Fragmentation;
        return c;
    }
    return makeError(ErrorCode::Invalid, "unknown reward preset '" + name + "' (default, latency-first, packing-first)");
}

RewardBreakdown computeReward(const RewardConfig& c, const RewardInputs& in)
{
    RewardBreakdown b;
    const double target = std::max(1.0, c.p99TargetS);
    b.success = in.placed ? 1.0 : in.waited ? 0.0 : -1.0;
    if (in.placed) {
        b.balance = std::clamp(in.balanceAfter, 0.0, 1.0);
        b.packing = std::clamp(in.dominantAfter, 0.0, 1.0);
        switch (c.customTerm) {
        case CustomTerm::Energy:
            b.custom = in.wokeIdleNode ? -1.0 : 0.0;
            break;
        case CustomTerm::Fragmentation:
            b.custom = -std::clamp(in.fragDelta, -1.0, 1.0);
            break;
        case CustomTerm::Wait:
            b.custom = in.waitS > 0 ? -in.waitS / (in.waitS + target) : 0.0;
            break;
        }
    }
    if (in.waitS > target)
        b.tail = -c.tailScale * std::min(c.tailCap, std::exp(c.tailRate * (in.waitS - target) / target) - 1.0);
    b.room = -std::clamp(in.roomCost, 0.0, 1.0);
    const auto w = c.normalised();
    b.total = w[0] * b.balance + w[1] * b.packing + w[2] * b.success + w[3] * b.custom + b.tail + c.roomCost * b.room;
    return b;
}

} // namespace schedlab::rl
