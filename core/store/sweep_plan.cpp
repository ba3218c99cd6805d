// Sweep plan files (sweep_plan.h): building, reading and writing.

#include "sweep_plan.h"

#include "run_spec_codec.h"

#include "trace/fields.h"
#include "trace/trace_loader.h"

#include <QByteArray>
#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>

namespace schedlab::store {

namespace {

/// Hex SHA-256 of a file's bytes.
Result<std::string> fileSha256(const std::string& path)
{
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
    if (!f)
        return makeError(ErrorCode::Io, std::string("cannot read: ") + std::strerror(errno), path);
    QCryptographicHash hash(QCryptographicHash::Sha256);
    std::vector<char> buf(1 << 20);
    std::size_t n = 0;
    while ((n = std::fread(buf.data(), 1, buf.size(), f.get())) > 0)
        hash.addData(QByteArrayView(buf.data(), qsizetype(n)));
    if (std::ferror(f.get()))
        return makeError(ErrorCode::Io, "cannot read", path);
    return hash.result().toHex().toStdString();
}

/// A path as JSON: text when it is UTF-8, else {"base64": its bytes}.
QJsonValue pathJson(const std::string& p)
{
    if (trace::isValidUtf8(p))
        return QString::fromStdString(p);
    return QJsonObject { { "base64", QString::fromLatin1(QByteArray::fromStdString(p).toBase64()) } };
}

std::optional<std::string> pathOf(const QJsonValue& v)
{
    if (v.isString())
        return v.toString().toStdString();
    if (v.isObject() && v.toObject().value("base64").isString())
        return QByteArray::fromBase64(v.toObject().value("base64").toString().toLatin1()).toStdString();
    return std::nullopt;
}

QJsonObject trainingJson(const SweepTraining& t)
{
    QJsonArray seeds, baselines;
    for (uint64_t s : t.evalSeeds)
        seeds.append(QString::number(s));
    for (const std::string& b : t.baselines)
        baselines.append(QString::fromStdString(b));
    return QJsonObject { { "rounds", t.rounds }, { "episodes", t.episodes }, { "learningRate", t.learningRate }, { "gamma", t.gamma },
        { "batchSize", t.batchSize }, { "maxPods", QString::number(t.maxPods) }, { "weights", QString::fromStdString(t.weights) },
        { "fromS", t.fromS }, { "windowS", t.windowS }, { "evalSeeds", seeds }, { "baselines", baselines } };
}

/// Reads a cell's "train" object; an error text naming the field, empty when fine.
std::string trainingFrom(const QJsonObject& o, SweepTraining& t)
{
    t.rounds = o.value("rounds").toInt(0);
    t.episodes = o.value("episodes").toInt(0);
    t.learningRate = o.value("learningRate").toDouble(-1);
    t.gamma = o.value("gamma").toDouble(-1);
    t.batchSize = o.value("batchSize").toInt(0);
    t.maxPods = o.value("maxPods").toString("0").toLongLong();
    t.weights = o.value("weights").toString().toStdString();
    t.fromS = o.value("fromS").toDouble(-1);
    t.windowS = o.value("windowS").toDouble(0);
    if (t.rounds < 1 || t.rounds > 1000)
        return "/rounds: expected 1..1000";
    if (t.episodes < 1)
        return "/episodes: expected a number of episodes >= 1";
    if (!(t.learningRate > 0))
        return "/learningRate: expected a rate > 0";
    if (!(t.gamma >= 0 && t.gamma < 1))
        return "/gamma: expected a discount in [0, 1)";
    if (t.batchSize < 1)
        return "/batchSize: expected >= 1";
    if (t.maxPods < 0)
        return "/maxPods: expected >= 0";
    if (!(t.fromS >= 0) || !(t.windowS > 0))
        return "/windowS: expected a window > 0 from >= 0";
    t.evalSeeds.clear();
    for (const QJsonValue& v : o.value("evalSeeds").toArray())
        t.evalSeeds.push_back(v.toString().toULongLong());
    if (t.evalSeeds.empty())
        return "/evalSeeds: expected seeds";
    for (const QJsonValue& v : o.value("baselines").toArray())
        t.baselines.push_back(v.toString().toStdString());
    return {};
}

QJsonObject cellJson(const SweepCell& c)
{
    const RunInfo info = runInfoOf(c.spec, -1);
    QJsonObject o { { "cell", c.index }, { "trace", c.trace }, { "shard", c.shard }, { "mode", QString::fromStdString(info.mode) },
        { "policy", QString::fromStdString(info.policy) }, { "queue", QString::fromStdString(info.queue) },
        { "backfill", QString::fromStdString(info.backfill) }, { "seed", QString::number(info.seed) },
        { "options", QJsonDocument::fromJson(QByteArray::fromStdString(info.optionsJson)).object() } };
    if (c.train)
        o.insert("train", trainingJson(*c.train));
    return o;
}

/// What identifies the plan: traces by content and options (not paths: the files may live
/// elsewhere on the cluster), and the cells.
std::string planIdOf(const SweepPlan& p)
{
    QJsonArray traces;
    for (const SweepTrace& t : p.traces) {
        QJsonArray sha;
        for (const std::string& s : t.sha256)
            sha.append(QString::fromStdString(s));
        QJsonObject opts;
        for (const auto& [k, v] : t.importOptions)
            opts.insert(QString::fromStdString(k), QString::fromStdString(v));
        traces.append(QJsonObject { { "sha256", sha }, { "importOptions", opts } });
    }
    QJsonArray cells;
    for (const SweepCell& c : p.cells)
        cells.append(cellJson(c));
    const QByteArray canonical = QJsonDocument(QJsonObject { { "shards", p.shards }, { "record", p.recordDecisions ? "full" : "summary" },
                                                    { "traces", traces }, { "cells", cells } })
                                     .toJson(QJsonDocument::Compact);
    return QCryptographicHash::hash(canonical, QCryptographicHash::Sha256).toHex().left(16).toStdString();
}

} // namespace

std::vector<const SweepCell*> SweepPlan::cellsOf(int s) const
{
    std::vector<const SweepCell*> out;
    for (const SweepCell& c : cells)
        if (c.shard == s)
            out.push_back(&c);
    return out;
}

Result<SweepPlan> makeSweepPlan(const SweepSpec& spec)
{
    if (spec.traces.empty() || (spec.policies.empty() && !spec.train) || spec.seeds.empty())
        return makeError(ErrorCode::Invalid, "a sweep needs traces, policies (or training) and seeds");
    if (spec.train && spec.weights.empty())
        return makeError(ErrorCode::Invalid, "a training sweep needs at least one weight vector");
    if (spec.shards < 1 || spec.shards > 100000)
        return makeError(ErrorCode::Invalid, "--shards takes 1 to 100000");
    SweepPlan plan;
    plan.shards = spec.shards;
    plan.recordDecisions = spec.recordDecisions;
    for (const std::vector<std::string>& files : spec.traces) {
        SweepTrace t;
        for (const std::string& f : files) {
            std::error_code ec;
            const std::filesystem::path abs = std::filesystem::absolute(f, ec);
            t.files.push_back(ec ? f : abs.lexically_normal().string());
            auto sha = fileSha256(t.files.back());
            if (!sha)
                return sha.error();
            t.sha256.push_back(*sha);
        }
        auto loaded = trace::loadTrace(t.files, spec.importOptions); // it must import, here already
        if (!loaded)
            return loaded.error();
        for (const auto& [k, v] : loaded->trace.metadata)
            if (k.rfind("import.", 0) == 0)
                t.importOptions[k] = v;
        plan.traces.push_back(std::move(t));
    }
    // A cell per (trace, choice, seed): the choice a policy, or a training cell's weight vector.
    const std::vector<std::string>& choices = spec.train ? spec.weights : spec.policies;
    for (std::size_t ti = 0; ti < plan.traces.size(); ++ti)
        for (const std::string& choice : choices)
            for (uint64_t seed : spec.seeds) {
                SweepCell c;
                c.index = int(plan.cells.size());
                c.trace = int(ti);
                c.shard = c.index % plan.shards;
                c.spec = spec.base;
                c.spec.policy = spec.train ? "learned" : choice;
                c.spec.setSeed(seed);
                if (spec.train) {
                    c.train = *spec.train;
                    c.train->weights = choice;
                }
                plan.cells.push_back(std::move(c));
            }
    plan.id = planIdOf(plan);
    return plan;
}

Status writeSweepPlan(const SweepPlan& plan, const std::string& path)
{
    // Files in the plan's folder (or below) are named relative to it: the folder can move (to a
    // cluster's shared file system, a Kubernetes volume) with the plan.
    std::error_code ec;
    const std::filesystem::path folder = std::filesystem::absolute(path, ec).parent_path().lexically_normal();
    auto named = [&](const std::string& f) {
        const std::filesystem::path rel = std::filesystem::path(f).lexically_relative(folder);
        return !rel.empty() && *rel.begin() != ".." ? rel.string() : f;
    };
    QJsonArray traces;
    for (const SweepTrace& t : plan.traces) {
        QJsonArray files, sha;
        for (const std::string& f : t.files)
            files.append(pathJson(named(f)));
        for (const std::string& s : t.sha256)
            sha.append(QString::fromStdString(s));
        QJsonObject opts;
        for (const auto& [k, v] : t.importOptions)
            opts.insert(QString::fromStdString(k), QString::fromStdString(v));
        traces.append(QJsonObject { { "files", files }, { "sha256", sha }, { "importOptions", opts } });
    }
    QJsonArray cells;
    for (const SweepCell& c : plan.cells)
        cells.append(cellJson(c));
    const QByteArray text = QJsonDocument(QJsonObject { { "schema", kSweepSchema }, { "id", QString::fromStdString(plan.id) },
                                              { "shards", plan.shards }, { "record", plan.recordDecisions ? "full" : "summary" },
                                              { "traces", traces }, { "cells", cells } })
                                .toJson(QJsonDocument::Indented);
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "wb"), &std::fclose);
    if (!f || std::fwrite(text.constData(), 1, std::size_t(text.size()), f.get()) != std::size_t(text.size()) || std::fflush(f.get()) != 0)
        return makeError(ErrorCode::Io, std::string("cannot write: ") + std::strerror(errno), path);
    return {};
}

Result<SweepPlan> readSweepPlan(const std::string& path)
{
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
    if (!f)
        return makeError(ErrorCode::Io, std::string("cannot read: ") + std::strerror(errno), path);
    QByteArray text;
    char buf[65536];
    std::size_t n = 0;
    while ((n = std::fread(buf, 1, sizeof buf, f.get())) > 0) {
        text.append(buf, qsizetype(n));
        if (text.size() > (qsizetype(256) << 20))
            return makeError(ErrorCode::Range, "larger than 256 MiB: not a sweep plan", path);
    }
    QJsonParseError err;
    const QJsonDocument doc = QJsonDocument::fromJson(text, &err);
    if (err.error != QJsonParseError::NoError || !doc.isObject())
        return makeError(ErrorCode::Parse, "not a sweep plan (JSON): " + err.errorString().toStdString() + " at byte " + std::to_string(err.offset), path);
    const QJsonObject o = doc.object();
    auto bad = [&](const std::string& field, const std::string& what) { return makeError(ErrorCode::Format, field + ": " + what, path); };
    if (o.value("schema").toString() != kSweepSchema)
        return bad("/schema", "'" + o.value("schema").toString().toStdString() + "' is not " + kSweepSchema);
    SweepPlan plan;
    std::error_code ec;
    const std::filesystem::path folder = std::filesystem::absolute(path, ec).parent_path();
    plan.id = o.value("id").toString().toStdString();
    plan.shards = o.value("shards").toInt(0);
    if (plan.shards < 1)
        return bad("/shards", "expected a number of shards >= 1");
    const QString record = o.value("record").toString("summary");
    if (record != "full" && record != "summary")
        return bad("/record", "'" + record.toStdString() + "' is not full or summary");
    plan.recordDecisions = record == "full";
    const QJsonArray traces = o.value("traces").toArray();
    for (int i = 0; i < traces.size(); ++i) {
        const QJsonObject t = traces[i].toObject();
        const std::string at = "/traces/" + std::to_string(i);
        SweepTrace st;
        const QJsonArray files = t.value("files").toArray(), sha = t.value("sha256").toArray();
        if (files.isEmpty())
            return bad(at + "/files", "expected a list of trace files");
        for (int k = 0; k < files.size(); ++k) {
            auto p = pathOf(files[k]);
            if (!p || p->empty())
                return bad(at + "/files/" + std::to_string(k), "expected a path");
            // Relative paths are the plan folder's.
            st.files.push_back(std::filesystem::path(*p).is_absolute() ? *p : (folder / *p).lexically_normal().string());
        }
        for (const QJsonValue& s : sha)
            st.sha256.push_back(s.toString().toStdString());
        const QJsonObject opts = t.value("importOptions").toObject();
        for (auto it = opts.begin(); it != opts.end(); ++it)
            st.importOptions[it.key().toStdString()] = it.value().toString().toStdString();
        plan.traces.push_back(std::move(st));
    }
    const QJsonArray cells = o.value("cells").toArray();
    for (int i = 0; i < cells.size(); ++i) {
        const QJsonObject c = cells[i].toObject();
        const std::string at = "/cells/" + std::to_string(i);
        SweepCell cell;
        cell.index = c.value("cell").toInt(-1);
        cell.trace = c.value("trace").toInt(-1);
        cell.shard = c.value("shard").toInt(-1);
        if (cell.index != i)
            return bad(at + "/cell", "expected " + std::to_string(i) + " (cells are numbered in order)");
        if (cell.trace < 0 || cell.trace >= int(plan.traces.size()))
            return bad(at + "/trace", "not a trace of the plan");
        if (cell.shard < 0 || cell.shard >= plan.shards)
            return bad(at + "/shard", "not a shard of the plan (0.." + std::to_string(plan.shards - 1) + ")");
        RunRow row;
        row.id = i;
        row.mode = c.value("mode").toString().toStdString();
        row.policy = c.value("policy").toString().toStdString();
        row.queue = c.value("queue").toString().toStdString();
        row.backfill = c.value("backfill").toString().toStdString();
        row.seed = c.value("seed").toString().toULongLong();
        row.optionsJson = QJsonDocument(c.value("options").toObject()).toJson(QJsonDocument::Compact).toStdString();
        if (row.policy.empty())
            return bad(at + "/policy", "expected a policy");
        auto spec = specFromRow(row);
        if (!spec)
            return bad(at, spec.error().message);
        cell.spec = std::move(spec).value();
        if (c.contains("train")) {
            SweepTraining t;
            if (!c.value("train").isObject())
                return bad(at + "/train", "expected an object");
            if (std::string e = trainingFrom(c.value("train").toObject(), t); !e.empty())
                return bad(at + "/train" + e.substr(0, e.find(':')), e.substr(e.find(':') + 2));
            cell.train = std::move(t);
        }
        plan.cells.push_back(std::move(cell));
    }
    if (planIdOf(plan) != plan.id)
        return bad("/id", "does not match the plan's content (edited by hand?): shards and merges would not recognise each other");
    return plan;
}

int shardFromEnvironment()
{
    for (const char* name : { "SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX" })
        if (const char* v = std::getenv(name); v && *v) {
            char* end = nullptr;
            const long i = std::strtol(v, &end, 10);
            if (end && *end == '\0' && i >= 0 && i < 1000000)
                return int(i);
        }
    return -1;
}

Result<std::vector<std::string>> expandWeightRanges(const std::string& text)
{
    std::vector<std::string> out;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t end = std::min(text.find(';', start), text.size());
        const std::string vector = text.substr(start, end - start);
        start = end + 1;
        if (vector.empty())
            continue;
        // Each "name=value" or "name=from:to:step" -> its values, as text.
        std::vector<std::pair<std::string, std::vector<std::string>>> axes;
        std::size_t p = 0;
        while (p <= vector.size()) {
            const std::size_t q = std::min(vector.find(',', p), vector.size());
            const std::string part = vector.substr(p, q - p);
            p = q + 1;
            if (part.empty())
                continue;
            const std::size_t eq = part.find('=');
            if (eq == std::string::npos || eq == 0)
                return makeError(ErrorCode::Parse, "weights: '" + part + "' is not name=value or name=from:to:step");
            const std::string name = part.substr(0, eq), value = part.substr(eq + 1);
            std::vector<std::string> values;
            if (value.find(':') == std::string::npos) {
                values.push_back(value);
            } else {
                double from = 0, to = 0, step = 0;
                char tail = 0;
                if (std::sscanf(value.c_str(), "%lf:%lf:%lf%c", &from, &to, &step, &tail) != 3 || !(step > 0) || to < from)
                    return makeError(ErrorCode::Parse, "weights: '" + part + "': a range is from:to:step with from <= to and step > 0");
                const long n = std::lround(std::floor((to - from) / step + 1e-9)) + 1;
                if (n > 1000)
                    return makeError(ErrorCode::Range, "weights: '" + part + "' gives more than 1000 values");
                for (long i = 0; i < n; ++i) {
                    char buf[32];
                    std::snprintf(buf, sizeof buf, "%.6g", from + double(i) * step);
                    values.push_back(buf);
                }
            }
            axes.emplace_back(name, std::move(values));
        }
        std::vector<std::string> vectors { "" };
        for (const auto& [name, values] : axes) {
            std::vector<std::string> next;
            for (const std::string& prefix : vectors)
                for (const std::string& v : values)
                    next.push_back(prefix + (prefix.empty() ? "" : ",") + name + "=" + v);
            vectors = std::move(next);
            if (vectors.size() > 100000)
                return makeError(ErrorCode::Range, "weights: more than 100000 weight vectors");
        }
        for (std::string& v : vectors)
            if (!v.empty())
                out.push_back(std::move(v));
    }
    if (out.empty())
        return makeError(ErrorCode::Parse, "weights: no weight vector in '" + text + "'");
    return out;
}

std::string sweepCellKey(const std::string& planId, int index) { return "sweep." + planId + ".cell." + std::to_string(index); }

Result<std::string> sweepFileSha256(const std::string& path) { return fileSha256(path); }

} // namespace schedlab::store
