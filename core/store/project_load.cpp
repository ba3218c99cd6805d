// Reading finished runs back (Project::loadRun) and the heat blobs both ways.

#include "project.h"

#include <QJsonDocument>
#include <QJsonObject>
#include "sqlite_db.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>

namespace schedlab::store {

Status Project::writeHeat(int64_t runId, const sim::NodeHeat& heat)
{
    if (heat.columns() == 0)
        return {};
    auto ins = m_db->prepare("INSERT INTO node_heat(run_id, nodes, x, util) VALUES (?, ?, ?, ?)");
    if (!ins)
        return ins.error();
    ins->bind(1, runId).bind(2, int64_t(heat.nodes));
    ins->bindBlob(3, heat.x.data(), int(heat.x.size() * sizeof(double)));
    ins->bindBlob(4, heat.util.data(), int(heat.util.size()));
    return ins->exec();
}

Status Project::readHeat(int64_t runId, sim::NodeHeat& heat)
{
    if (m_schema < 2)
        return {}; // an older project opened read-only: runs without heat
    auto q = m_db->prepare("SELECT nodes, x, util FROM node_heat WHERE run_id = ?");
    if (!q)
        return q.error();
    q->bind(1, runId);
    if (!q->step())
        return q->error() ? Status(*q->error()) : Status();
    const int64_t nodes = q->columnInt(0);
    const std::vector<unsigned char> x = q->columnBlob(1);
    std::vector<unsigned char> util = q->columnBlob(2);
    const std::size_t columns = x.size() / sizeof(double);
    if (nodes <= 0 || x.size() % sizeof(double) != 0 || util.size() != columns * std::size_t(nodes))
        return makeError(ErrorCode::Format, "run " + std::to_string(runId) + ": node_heat blobs have inconsistent sizes", m_path);
    heat.nodes = int32_t(nodes);
    heat.x.resize(columns);
    std::memcpy(heat.x.data(), x.data(), x.size());
    heat.util.assign(util.begin(), util.end());
    return {};
}

Result<std::string> Project::setting(const std::string& key)
{
    auto q = m_db->prepare("SELECT value FROM meta WHERE key = ?");
    if (!q)
        return q.error();
    q->bind(1, "setting." + key);
    if (q->step())
        return q->columnText(0);
    if (q->error())
        return *q->error();
    return std::string();
}

Status Project::setSetting(const std::string& key, const std::string& value)
{
    if (Status s = writable(); !s)
        return s;
    if (m_db->readOnly())
        return makeError(ErrorCode::Io, "project is read-only; settings cannot be saved", m_path);
    auto q = m_db->prepare("INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value");
    if (!q)
        return q.error();
    return q->bind(1, "setting." + key).bind(2, value).exec();
}

Status Project::copyTo(const std::string& path)
{
    auto q = m_db->prepare("VACUUM INTO ?");
    if (!q)
        return q.error();
    return q->bind(1, path).exec();
}

Result<std::vector<std::string>> Project::traceFiles(int64_t traceId)
{
    auto q = m_db->prepare("SELECT files FROM traces WHERE id = ?");
    if (!q)
        return q.error();
    q->bind(1, traceId);
    if (!q->step())
        return q->error() ? *q->error() : makeError(ErrorCode::Invalid, "no trace " + std::to_string(traceId), m_path);
    std::vector<std::string> out;
    std::string all = q->columnText(0), part;
    for (char c : all + "\n")
        if (c == '\n') {
            if (!part.empty())
                out.push_back(part);
            part.clear();
        } else {
            part += c;
        }
    return out;
}

Result<trace::ImportOptions> Project::traceImportOptions(int64_t traceId)
{
    auto q = m_db->prepare(std::string(m_schema >= 8 ? "SELECT import_options" : "SELECT '{}'") + " FROM traces WHERE id = ?");
    if (!q)
        return q.error();
    q->bind(1, traceId);
    if (!q->step())
        return q->error() ? *q->error() : makeError(ErrorCode::Invalid, "no trace " + std::to_string(traceId), m_path);
    const QJsonObject o = QJsonDocument::fromJson(QByteArray::fromStdString(q->columnText(0))).object();
    std::map<std::string, std::string> metadata;
    for (auto it = o.begin(); it != o.end(); ++it)
        metadata["import." + it.key().toStdString()] = it.value().toString().toStdString();
    return trace::importOptionsFromMetadata(metadata);
}

namespace {
Distribution distributionFrom(const std::map<std::string, double>& s, const std::string& name, int64_t count)
{
    auto get = [&](const char* k) {
        auto it = s.find(name + "." + k);
        return it == s.end() ? 0.0 : it->second;
    };
    Distribution d;
    d.count = count;
    d.mean = get("mean");
    d.p50 = get("p50");
    d.p95 = get("p95");
    d.p99 = get("p99");
    d.max = get("max");
    return d;
}
/// The run's summary values by name; absent ones are 0.
struct Summary {
    std::map<std::string, double> values;
    double num(const char* k) const
    {
        const auto it = values.find(k);
        return it == values.end() ? 0.0 : it->second;
    }
};

sim::FillResult fillFromSummary(const RunRow& row, const Summary& s, uint64_t finalHash)
{
    sim::FillResult f;
    f.policy = row.policy;
    f.seed = row.seed;
    f.stateHash = finalHash;
    f.pods = int64_t(s.num("pods"));
    f.placed = int64_t(s.num("placed"));
    f.failed = int64_t(s.num("failed"));
    f.failedGpuMilli = int64_t(s.num("failedGpuMilli"));
    f.finalGpuAllocPct = s.num("finalGpuAllocPct");
    f.finalFragRatePct = s.num("finalFragRatePct");
    f.finalFragAmount = s.num("finalFragAmount");
    f.seconds = row.wallSeconds;
    return f;
}

Status readFillCurve(Database& db, int64_t runId, sim::FillResult& f)
{
    auto q = db.prepare("SELECT arrived_pct, arrived_exact_pct, gpu_alloc_pct, frag_amount, frag_rate_pct, "
                        "pods_arrived, pods_failed FROM fill_curve WHERE run_id = ? ORDER BY arrived_pct");
    if (!q)
        return q.error();
    q->bind(1, runId);
    while (q->step())
        f.curve.push_back({ int(q->columnInt(0)), q->columnDouble(1), q->columnDouble(2), q->columnDouble(3),
            q->columnDouble(4), q->columnInt(5), q->columnInt(6) });
    if (q->error())
        return *q->error();
    return {};
}

sim::TimedResult timedFromSummary(const RunRow& row, const Summary& s, uint64_t finalHash)
{
    sim::TimedResult t;
    t.policy = row.policy;
    t.queue = row.queue;
    t.backfill = row.backfill;
    t.seed = row.seed;
    t.units = int64_t(s.num("units"));
    t.completed = int64_t(s.num("completed"));
    t.failed = int64_t(s.num("failed"));
    t.skipped = int64_t(s.num("skipped"));
    t.outsideWindow = int64_t(s.num("outsideWindow"));
    t.backfilled = int64_t(s.num("backfilled"));
    t.preemptions = int64_t(s.num("preemptions")); // 0 for runs stored before they existed
    t.migrations = int64_t(s.num("migrations"));
    t.workLostGpuHours = s.num("workLostGpuHours");
    t.workLostCpuHours = s.num("workLostCpuHours");
    t.gpuBlockedWithRoom = int64_t(s.num("gpuBlockedWithRoom")); // 0 for runs stored before it was kept
    t.meanCpuUtil = s.num("meanCpuUtil");
    t.meanMemUtil = s.num("meanMemUtil");
    t.meanGpuUtil = s.num("meanGpuUtil");
    t.meanGpuFragRate = s.num("meanGpuFragRate");
    t.meanCpuFragRate = s.num("meanCpuFragRate"); // 0 for runs stored before it was kept
    t.energyKWh = s.values.count("energyKWh") ? s.values.at("energyKWh") : -1;
    t.makespanS = s.num("makespanS");
    t.simSeconds = row.wallSeconds;
    t.stateHash = finalHash;
    t.waitS = distributionFrom(s.values, "wait", t.completed);
    t.jctS = distributionFrom(s.values, "jct", t.completed);
    t.boundedSlowdown = distributionFrom(s.values, "bsld", t.completed);
    for (const auto& [k, v] : s.values)
        if (k.rfind("slaViolations.", 0) == 0)
            t.slaViolations[k.substr(14)] = int64_t(v);
    return t;
}

Status readSeries(Database& db, int64_t runId, sim::TimedResult& t)
{
    auto q = db.prepare("SELECT t, cpu_util, mem_util, gpu_util, active_nodes, gpu_frag_rate, cpu_frag_rate, "
                        "gpu_frag_amount, p99_wait, queued, running, power_w FROM series WHERE run_id = ? ORDER BY idx");
    if (!q)
        return q.error();
    q->bind(1, runId);
    while (q->step()) {
        sim::SeriesPoint p;
        p.timeS = q->columnDouble(0);
        p.cpuUtil = q->columnDouble(1);
        p.memUtil = q->columnDouble(2);
        p.gpuUtil = q->columnDouble(3);
        p.activeNodes = int32_t(q->columnInt(4));
        p.gpuFragRate = q->columnDouble(5);
        p.cpuFragRate = q->columnDouble(6);
        p.gpuFragAmount = q->columnDouble(7);
        p.p99WaitS = q->columnDouble(8);
        p.queued = int32_t(q->columnInt(9));
        p.running = int32_t(q->columnInt(10));
        p.powerW = q->columnDouble(11);
        t.series.push_back(p);
    }
    if (q->error())
        return *q->error();
    return {};
}

Status readUnits(Database& db, int64_t runId, sim::TimedResult& t)
{
    auto j = db.prepare("SELECT job, first_task, task_count, submit, start, finish, failed FROM job_results "
                        "WHERE run_id = ? ORDER BY unit");
    if (!j)
        return j.error();
    j->bind(1, runId);
    while (j->step()) {
        sim::UnitResult u;
        u.job = int32_t(j->columnInt(0));
        u.firstTask = int32_t(j->columnInt(1));
        u.taskCount = int32_t(j->columnInt(2));
        u.submitS = j->columnDouble(3);
        u.startS = j->columnDouble(4);
        u.finishS = j->columnDouble(5);
        u.failed = j->columnInt(6) != 0;
        u.runS = u.finishS >= 0 && u.startS >= 0 ? u.finishS - u.startS : 0;
        t.units_.push_back(u);
    }
    if (j->error())
        return *j->error();
    return {};
}

/// The final state hash is kept with the state journal (runs recorded with one); 0 = unknown.
uint64_t finalStateHash(Database& db, int64_t runId)
{
    uint64_t finalHash = 0;
    if (auto h = db.prepare("SELECT final_hash FROM run_journals WHERE run_id = ?")) {
        h->bind(1, runId);
        if (h->step())
            finalHash = std::strtoull(h->columnText(0).c_str(), nullptr, 16);
    }
    return finalHash;
}

} // namespace

Result<StoredRun> Project::loadRun(int64_t runId)
{
    auto all = runs();
    if (!all)
        return all.error();
    StoredRun out;
    bool found = false;
    for (RunRow& r : all.value())
        if (r.id == runId) {
            out.row = std::move(r);
            found = true;
        }
    if (!found)
        return makeError(ErrorCode::Invalid, "no run " + std::to_string(runId) + " in this project", m_path);
    if (out.row.status != "finished")
        return makeError(ErrorCode::Invalid,
            "run " + std::to_string(runId) + " is " + out.row.status + (out.row.error.empty() ? "" : " (" + out.row.error + ")")
                + "; it has no results",
            m_path);
    auto sumRows = summary(runId);
    if (!sumRows)
        return sumRows.error();
    const Summary s { std::map<std::string, double>(sumRows->begin(), sumRows->end()) };
    const uint64_t finalHash = finalStateHash(*m_db, runId);

    if (out.row.mode == "fill") {
        sim::FillResult f = fillFromSummary(out.row, s, finalHash);
        if (Status st = readFillCurve(*m_db, runId, f); !st)
            return st.error();
        if (Status st = readHeat(runId, f.heat); !st)
            return st.error();
        out.fill = std::move(f);
        return out;
    }
    sim::TimedResult t = timedFromSummary(out.row, s, finalHash);
    if (Status st = readSeries(*m_db, runId, t); !st)
        return st.error();
    if (Status st = readUnits(*m_db, runId, t); !st)
        return st.error();
    if (Status st = readHeat(runId, t.heat); !st)
        return st.error();
    out.timed = std::move(t);
    return out;
}

} // namespace schedlab::store

namespace schedlab::store {

Status Project::writeStateHashes(int64_t runId, const std::vector<std::pair<int64_t, uint64_t>>& hashes)
{
    auto ins = m_db->prepare("INSERT INTO state_hashes(run_id, idx, hash) VALUES (?, ?, ?)");
    if (!ins)
        return ins.error();
    for (const auto& [k, h] : hashes) {
        char hex[17];
        std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
        if (Status s = ins->bind(1, runId).bind(2, k).bind(3, std::string(hex)).exec(); !s)
            return s;
    }
    return {};
}

Result<std::vector<std::pair<int64_t, uint64_t>>> Project::stateHashes(int64_t runId)
{
    if (m_schema < 5)
        return std::vector<std::pair<int64_t, uint64_t>> {}; // an older project opened read-only
    auto q = m_db->prepare("SELECT idx, hash FROM state_hashes WHERE run_id = ? ORDER BY idx");
    if (!q)
        return q.error();
    q->bind(1, runId);
    std::vector<std::pair<int64_t, uint64_t>> out;
    while (q->step())
        out.push_back({ q->columnInt(0), std::strtoull(q->columnText(1).c_str(), nullptr, 16) });
    if (q->error())
        return *q->error();
    return out;
}

Result<sim::DecisionLog> Project::decisions(int64_t runId)
{
    auto q = m_db->prepare(std::string("SELECT t, job, task, node, outcome, feasible, candidates, ") + (m_schema >= 6 ? "reward" : "NULL")
        + " FROM decisions WHERE run_id = ? ORDER BY idx");
    if (!q)
        return q.error();
    q->bind(1, runId);
    sim::DecisionLog log;
    std::vector<policy::Candidate> top;
    while (q->step()) {
        sim::Decision d;
        d.timeS = q->columnDouble(0);
        d.job = int32_t(q->columnInt(1));
        d.task = int32_t(q->columnInt(2));
        d.node = int32_t(q->columnInt(3));
        const int64_t outcome = q->columnInt(4);
        if (outcome < 0 || outcome > int64_t(sim::Outcome::Migrated))
            return makeError(ErrorCode::Format, "run " + std::to_string(runId) + ": a decision has an unknown outcome", m_path);
        d.outcome = sim::Outcome(outcome);
        d.feasible = int32_t(q->columnInt(5));
        const std::vector<unsigned char> blob = q->columnBlob(6);
        constexpr std::size_t kRecord = 4 + 8 + 8 + 8; // see writeDecisions
        if (blob.size() % kRecord != 0)
            return makeError(ErrorCode::Format, "run " + std::to_string(runId) + ": a decision's candidate list is corrupted", m_path);
        top.clear();
        for (std::size_t at = 0; at < blob.size(); at += kRecord) {
            policy::Candidate c;
            std::memcpy(&c.node, blob.data() + at, 4);
            std::memcpy(&c.score, blob.data() + at + 4, 8);
            std::memcpy(&c.raw, blob.data() + at + 12, 8);
            std::memcpy(&c.gpuMask, blob.data() + at + 20, 8);
            top.push_back(c);
        }
        const std::vector<unsigned char> rewardBlob = q->columnBlob(7);
        std::vector<float> reward;
        if (rewardBlob.size() == sizeof(float) * sim::kRewardTerms) {
            reward.resize(sim::kRewardTerms);
            std::memcpy(reward.data(), rewardBlob.data(), rewardBlob.size());
        }
        log.add(d, top, reward);
    }
    if (q->error())
        return *q->error();
    return log;
}

} // namespace schedlab::store
