#include "native_logged.h"

#include "fields.h"

namespace schedlab::trace {

namespace {

const char* outcomeName(LoggedOutcome o)
{
    switch (o) {
    case LoggedOutcome::Placed: return "placed";
    case LoggedOutcome::Unschedulable: return "unschedulable";
    case LoggedOutcome::Waited: return "waited";
    }
    return "placed";
}

std::string num(int64_t v) { return std::to_string(v); }
std::string num(double v) { return formatDouble(v); }

Status bad(const std::string& field, const std::string& message)
{
    return makeError(ErrorCode::Parse, (field.empty() ? "" : "column " + field + ": ") + message);
}

/// Field `i` as an integer in lo..hi.
Status i64(const std::vector<std::string_view>& f, std::size_t i, const char* name, int64_t lo, int64_t hi, int64_t& out)
{
    const ParseStatus st = parseInt64(f[i], out);
    if (st != ParseStatus::Ok)
        return bad(name, parseMessage(st, f[i]));
    if (out < lo || out > hi)
        return bad(name, std::to_string(out) + " is out of range [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
    return {};
}

Status dbl(const std::vector<std::string_view>& f, std::size_t i, const char* name, double& out)
{
    const ParseStatus st = parseDouble(f[i], out);
    return st == ParseStatus::Ok ? Status {} : bad(name, parseMessage(st, f[i]));
}

} // namespace

void writeLoggedRecords(const LoggedDecisions& l, const std::function<void(const std::string&)>& line)
{
    for (const std::string& n : l.names)
        line("lname," + percentEscape(n));
    for (const LoggedDecision& d : l.decisions) {
        line("ldec," + num(int64_t(d.task)) + "," + outcomeName(d.outcome) + "," + num(d.timeS) + "," + num(d.lastTimeS) + ","
            + num(int64_t(d.node)) + "," + num(int64_t(d.count)) + "," + num(int64_t(d.evaluatedNodes)) + ","
            + num(int64_t(d.feasibleNodes)) + "," + num(int64_t(d.source)) + "," + num(int64_t(d.reasonCount)) + ","
            + num(int64_t(d.candidateCount)) + "," + num(int64_t(d.rewardCount)));
        for (uint32_t i = 0; i < d.reasonCount; ++i) {
            const LoggedReason& r = l.reasons[d.firstReason + i];
            line("lreason," + num(int64_t(r.name)) + "," + num(int64_t(r.nodes)));
        }
        for (uint32_t i = 0; i < d.rewardCount; ++i) {
            const LoggedTerm& t = l.terms[d.firstReward + i];
            line("lreward," + num(int64_t(t.name)) + "," + num(t.value));
        }
        for (uint32_t i = 0; i < d.candidateCount; ++i) {
            const LoggedCandidate& c = l.candidates[d.firstCandidate + i];
            std::string s = "lcand," + num(int64_t(c.node)) + "," + (c.hasScore ? num(c.score) : std::string()) + ","
                + num(int64_t(c.termCount));
            for (uint32_t k = 0; k < c.termCount; ++k) {
                const LoggedTerm& t = l.terms[c.firstTerm + k];
                s += "," + num(int64_t(t.name)) + "," + num(t.value);
            }
            line(s);
        }
    }
}

bool LoggedRecordReader::handles(std::string_view kind)
{
    return kind == "lname" || kind == "ldec" || kind == "lreason" || kind == "lreward" || kind == "lcand";
}

Status LoggedRecordReader::add(const std::vector<std::string_view>& f, Trace& trace)
{
    LoggedDecisions& l = trace.logged;
    const std::string_view kind = f[0];
    if (kind == "lname") {
        if (f.size() != 2)
            return bad("", "lname lines have 2 fields, found " + std::to_string(f.size()));
        std::string name;
        if (!percentUnescape(f[1], name))
            return bad("name", "bad escape in " + quoted(f[1]));
        l.names.push_back(std::move(name));
        return {};
    }
    if (kind == "ldec")
        return decision(f, trace);
    if (kind == "lreason")
        return reason(f, l);
    if (kind == "lreward")
        return reward(f, l);
    return candidate(f, trace); // lcand
}

Status LoggedRecordReader::decision(const std::vector<std::string_view>& f, Trace& trace)
{
    LoggedDecisions& l = trace.logged;
    const int64_t names = int64_t(l.names.size()), nodes = int64_t(trace.nodes.size());
    if (m_reasonsLeft || m_candidatesLeft || m_rewardsLeft)
        return bad("", "the decision before still expects " + std::to_string(m_reasonsLeft) + " lreason, "
                + std::to_string(m_rewardsLeft) + " lreward and " + std::to_string(m_candidatesLeft) + " lcand lines");
    if (f.size() != 12 && f.size() != 13) // 12: written before decisions had rewards
        return bad("", "ldec lines have 13 fields, found " + std::to_string(f.size()));
    LoggedDecision d;
    int64_t task = 0, node = 0, count = 0, evaluated = 0, feasible = 0, source = 0, reasons = 0, candidates = 0, rewards = 0;
    if (f[2] == "placed")
        d.outcome = LoggedOutcome::Placed;
    else if (f[2] == "unschedulable")
        d.outcome = LoggedOutcome::Unschedulable;
    else if (f[2] == "waited")
        d.outcome = LoggedOutcome::Waited;
    else
        return bad("outcome", quoted(f[2]) + " is not placed, unschedulable or waited");
    for (Status s : { i64(f, 1, "task", 0, int64_t(trace.tasks.size()) - 1, task), dbl(f, 3, "time_s", d.timeS),
             dbl(f, 4, "last_time_s", d.lastTimeS), i64(f, 5, "node", -1, nodes - 1, node),
             i64(f, 6, "count", 1, INT32_MAX, count), i64(f, 7, "evaluated", -1, INT32_MAX, evaluated),
             i64(f, 8, "feasible", -1, INT32_MAX, feasible), i64(f, 9, "source", -1, names - 1, source),
             i64(f, 10, "reasons", 0, 1 << 20, reasons), i64(f, 11, "candidates", 0, 1 << 24, candidates) })
        if (!s)
            return s;
    if (f.size() == 13)
        if (Status s = i64(f, 12, "rewards", 0, 4096, rewards); !s)
            return s;
    d.task = uint32_t(task);
    d.node = int32_t(node);
    d.count = int32_t(count);
    d.evaluatedNodes = int32_t(evaluated);
    d.feasibleNodes = int32_t(feasible);
    d.source = int32_t(source);
    d.firstReason = uint32_t(l.reasons.size());
    d.reasonCount = uint32_t(reasons);
    d.firstCandidate = uint32_t(l.candidates.size());
    d.candidateCount = uint32_t(candidates);
    d.firstReward = uint32_t(l.terms.size());
    d.rewardCount = uint32_t(rewards);
    m_reasonsLeft = d.reasonCount;
    m_rewardsLeft = d.rewardCount;
    m_candidatesLeft = d.candidateCount;
    l.decisions.push_back(d);
    ++m_decisions;
    return {};
}

Status LoggedRecordReader::reason(const std::vector<std::string_view>& f, LoggedDecisions& l)
{
    const int64_t names = int64_t(l.names.size());
    if (m_reasonsLeft == 0)
        return bad("", "lreason line without a decision expecting it");
    if (f.size() != 3)
        return bad("", "lreason lines have 3 fields, found " + std::to_string(f.size()));
    int64_t name = 0, count = 0;
    for (Status s : { i64(f, 1, "name", 0, names - 1, name), i64(f, 2, "nodes", -1, INT32_MAX, count) })
        if (!s)
            return s;
    l.reasons.push_back(LoggedReason { int32_t(name), int32_t(count) });
    --m_reasonsLeft;
    return {};
}

Status LoggedRecordReader::reward(const std::vector<std::string_view>& f, LoggedDecisions& l)
{
    const int64_t names = int64_t(l.names.size());
    if (m_reasonsLeft || m_rewardsLeft == 0)
        return bad("", m_reasonsLeft ? "lreward line before the decision's lreason lines" : "lreward line without a decision expecting it");
    if (f.size() != 3)
        return bad("", "lreward lines have 3 fields, found " + std::to_string(f.size()));
    int64_t name = 0;
    LoggedTerm t;
    if (Status s = i64(f, 1, "name", 0, names - 1, name); !s)
        return s;
    if (Status s = dbl(f, 2, "value", t.value); !s)
        return s;
    t.name = int32_t(name);
    l.terms.push_back(t);
    --m_rewardsLeft;
    return {};
}

Status LoggedRecordReader::candidate(const std::vector<std::string_view>& f, Trace& trace)
{
    LoggedDecisions& l = trace.logged;
    const int64_t names = int64_t(l.names.size()), nodes = int64_t(trace.nodes.size());
    if (m_reasonsLeft || m_rewardsLeft || m_candidatesLeft == 0)
        return bad("", m_reasonsLeft || m_rewardsLeft ? "lcand line before the decision's lreason and lreward lines"
                                                      : "lcand line without a decision expecting it");
    if (f.size() < 4)
        return bad("", "lcand lines have at least 4 fields, found " + std::to_string(f.size()));
    LoggedCandidate c;
    int64_t node = 0, terms = 0;
    if (Status s = i64(f, 1, "node", -1, nodes - 1, node); !s)
        return s;
    if (!f[2].empty()) {
        if (Status s = dbl(f, 2, "score", c.score); !s)
            return s;
        c.hasScore = true;
    }
    if (Status s = i64(f, 3, "terms", 0, 4096, terms); !s)
        return s;
    if (f.size() != std::size_t(4 + 2 * terms))
        return bad("", "lcand with " + std::to_string(terms) + " terms has " + std::to_string(4 + 2 * terms) + " fields, found "
                + std::to_string(f.size()));
    c.node = int32_t(node);
    c.firstTerm = uint32_t(l.terms.size());
    c.termCount = uint32_t(terms);
    for (int64_t k = 0; k < terms; ++k) {
        LoggedTerm t;
        int64_t name = 0;
        if (Status s = i64(f, std::size_t(4 + 2 * k), "term name", 0, names - 1, name); !s)
            return s;
        if (Status s = dbl(f, std::size_t(5 + 2 * k), "term value", t.value); !s)
            return s;
        t.name = int32_t(name);
        l.terms.push_back(t);
    }
    l.candidates.push_back(c);
    --m_candidatesLeft;
    return {};
}

Status LoggedRecordReader::finish() const
{
    if (m_reasonsLeft || m_candidatesLeft || m_rewardsLeft)
        return bad("", "the last decision expects " + std::to_string(m_reasonsLeft) + " more lreason, " + std::to_string(m_rewardsLeft)
                + " more lreward and " + std::to_string(m_candidatesLeft) + " more lcand lines");
    return {};
}

} // namespace schedlab::trace
