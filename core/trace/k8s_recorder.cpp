// kube-scheduler-simulator recorder files (kubernetes-sigs/kube-scheduler-simulator, simulator/
// recorder): the add / update / delete of Pods, Nodes and other objects a real cluster went
// through, one record {"time": RFC 3339, "event": "Add"|"Update"|"Delete", "resource": object}
// per line (or, as older versions wrote, one JSON array of records). Each record's object is read
// by the kubectl object reader (k8s_json.cpp: requests, QoS, conditions), then folded into the
// pod's and node's history:
// - a pod arrives at its creationTimestamp (else its first record); it is bound when a record
//   first shows spec.nodeName (the PodScheduled condition's time, else that record's time); it
//   ends at its containers' termination, else at its Delete record;
// - a node's allocatable is the last one recorded; nodes deleted are counted (replay keeps them);
// - other kinds (namespaces, volumes, priority classes) are counted and ignored.

#include "k8s_importer.h"

#include "fields.h"
#include "import_context.h"
#include "line_reader.h"
#include "rfc3339.h"

#include <simdjson.h>

#include <map>
#include <unordered_map>

namespace schedlab::trace {

namespace {

namespace dom = simdjson::dom;

/// Folds one recorder file's records into the importer's objects.
class RecorderFile {
public:
    RecorderFile(const std::string& file, K8sObjects& objects, K8sJsonReader& json, Diagnostics& diag)
        : m_file(file)
        , m_objects(objects)
        , m_json(json)
        , m_diag(diag)
    {
    }

    /// One record: its time, event and object (line -1: in a JSON array).
    void take(dom::element record, int64_t line);
    void warn(int64_t line, const std::string& field, const std::string& message)
    {
        if (++m_badRecords <= 50)
            m_diag.warn("bad-record", m_file, line, field, message + "; record skipped");
    }
    /// Counts as notes; an error when the file held no record.
    Status report() const;

private:
    /// The recorder keeps only the name of a deleted object.
    void remove(bool pod, const std::string& key, double t);
    /// An added or updated pod or node, read as kubectl's (requests, QoS, conditions, statuses).
    void fold(bool pod, const std::string& key, double t, dom::element resource, int64_t line);

    const std::string& m_file;
    K8sObjects& m_objects;
    K8sJsonReader& m_json;
    Diagnostics& m_diag;
    std::unordered_map<std::string, std::size_t> m_podAt, m_nodeAt; ///< ns/name -> index in m_objects
    int64_t m_records = 0, m_badRecords = 0, m_nodesDeleted = 0, m_podsDeleted = 0;
    std::map<std::string, int64_t> m_events;
    std::string m_objectText;
};

void RecorderFile::take(dom::element record, int64_t line)
{
    ++m_records;
    dom::object r;
    if (record.get_object().get(r)) {
        warn(line, "", "not a recorder record (an object with time, event and resource)");
        return;
    }
    std::string_view timeText, event;
    dom::element resource;
    if (r["time"].get_string().get(timeText) || r["event"].get_string().get(event) || r["resource"].get(resource)) {
        warn(line, "", "a record needs time, event and resource");
        return;
    }
    const auto t = parseRfc3339(timeText);
    if (!t) {
        warn(line, "/time", trace::quoted(timeText) + " is not an RFC 3339 time");
        return;
    }
    if (event != "Add" && event != "Update" && event != "Delete") {
        warn(line, "/event", trace::quoted(event) + " is not Add, Update or Delete");
        return;
    }
    ++m_events[std::string(event)];
    // Unstructured marshalled by value: {"Object": {...}}.
    if (dom::element inner; resource.is_object() && !resource["Object"].get(inner) && inner.is_object())
        resource = inner;
    std::string_view kind, name, ns;
    if (resource["kind"].get_string().get(kind) || resource.at_pointer("/metadata/name").get_string().get(name) || name.empty()) {
        warn(line, "/resource", "an object without kind or metadata.name");
        return;
    }
    if (resource.at_pointer("/metadata/namespace").get_string().get(ns))
        ns = {}; // cluster-scoped (nodes)
    const std::string key = ns.empty() ? std::string(name) : std::string(ns) + "/" + std::string(name);
    if (kind != "Pod" && kind != "Node") {
        ++m_objects.ignoredKinds[std::string(kind)];
        return;
    }
    const bool pod = kind == "Pod";
    if (event == "Delete")
        remove(pod, key, *t);
    else
        fold(pod, key, *t, resource, line);
}

void RecorderFile::remove(bool pod, const std::string& key, double t)
{
    if (pod) {
        if (const auto it = m_podAt.find(key); it != m_podAt.end()) {
            K8sPod& p = m_objects.pods[it->second];
            if (p.endS < 0)
                p.endS = t;
            p.deletedS = t;
            ++m_podsDeleted;
        }
    } else if (m_nodeAt.count(key)) {
        ++m_nodesDeleted;
    }
}

void RecorderFile::fold(bool pod, const std::string& key, double t, dom::element resource, int64_t line)
{
    // Read into a scratch set.
    m_objectText = simdjson::minify(resource);
    const std::size_t size = m_objectText.size();
    m_objectText.append(kJsonPadding, ' ');
    K8sObjects one;
    if (Status st = m_json.read(m_objectText.data(), size, m_file + ":" + std::to_string(line), one, m_diag); !st) {
        warn(line, "/resource", st.error().message);
        return;
    }
    if (pod && one.pods.size() == 1) {
        K8sPod& now = one.pods.front();
        const auto [it, added] = m_podAt.try_emplace(key, m_objects.pods.size());
        if (added) {
            if (now.createdS < 0)
                now.createdS = t;
            m_objects.pods.push_back(std::move(now));
            K8sPod& p = m_objects.pods.back();
            if (!p.nodeName.empty() && p.scheduledS < 0)
                p.scheduledS = t; // bound when first seen
            return;
        }
        K8sPod& p = m_objects.pods[it->second];
        if (p.nodeName.empty() && !now.nodeName.empty()) { // this update bound it
            p.nodeName = now.nodeName;
            p.scheduledS = now.scheduledS >= 0 ? now.scheduledS : t;
        }
        if (p.startedS < 0)
            p.startedS = now.startedS;
        if (now.endS >= 0 && p.endS < 0)
            p.endS = now.endS;
        if (!now.phase.empty())
            p.phase = now.phase;
    } else if (!pod && one.nodes.size() == 1) {
        const auto [it, added] = m_nodeAt.try_emplace(key, m_objects.nodes.size());
        if (added)
            m_objects.nodes.push_back(std::move(one.nodes.front()));
        else
            m_objects.nodes[it->second] = std::move(one.nodes.front()); // the last allocatable recorded
    }
}

Status RecorderFile::report() const
{
    if (m_badRecords > 50)
        m_diag.count("bad-record", m_badRecords - 50);
    for (const auto& [event, n] : m_events)
        m_diag.note("recorder " + event + " records", n);
    if (m_nodesDeleted)
        m_diag.note("recorder nodes deleted (kept for the replay)", m_nodesDeleted);
    if (m_podsDeleted)
        m_diag.note("recorder pods deleted", m_podsDeleted);
    if (m_records == 0)
        return makeError(ErrorCode::Empty, "no recorder record in the file", m_file);
    return {};
}

/// JSON Lines: one record per line.
Status readLines(std::string_view all, dom::parser& parser, RecorderFile& recorder, LineReader& reader, ImportContext& ctx)
{
    std::string padded;
    std::size_t start = 0;
    int64_t line = 0;
    while (start < all.size()) {
        std::size_t end = all.find('\n', start);
        if (end == std::string_view::npos)
            end = all.size();
        ++line;
        const std::string_view text = trimmed(all.substr(start, end - start));
        start = end + 1;
        if ((line & 4095) == 0 && !ctx.tick(reader))
            return ctx.cancelledError(reader);
        if (text.empty())
            continue;
        padded.assign(text);
        padded.append(simdjson::SIMDJSON_PADDING, ' ');
        dom::element record;
        if (parser.parse(padded.data(), text.size(), false).get(record)) {
            recorder.warn(line, "", "not a JSON object (cut mid-way?)");
            continue;
        }
        recorder.take(record, line);
    }
    return {};
}

} // namespace

Status K8sImporter::addRecorderFile(LineReader& reader, ImportContext& ctx)
{
    const std::string& file = reader.displayName();
    m_files.push_back(file);
    RecorderFile recorder(file, m_objects, m_json, ctx.diagnostics);
    dom::parser parser;

    // JSON Lines (current recorder) or one array of records (older versions).
    if (!reader.readRest(m_text, kJsonPadding))
        return *reader.error();
    const std::string_view all(m_text.data(), m_text.size());
    const std::string_view body = trimmed(all);
    if (body.empty())
        return makeError(ErrorCode::Empty, "file is empty", file);
    if (body.front() == '[') {
        dom::element doc;
        if (const auto err = parser.parse(m_text.data(), m_text.size(), false).get(doc))
            return makeError(ErrorCode::Parse, std::string("not valid JSON (truncated or corrupted): ") + simdjson::error_message(err), file);
        dom::array list;
        if (doc.get_array().get(list))
            return makeError(ErrorCode::Parse, "not a list of recorder records", file);
        for (dom::element e : list)
            recorder.take(e, -1);
    } else if (Status st = readLines(all, parser, recorder, reader, ctx); !st) {
        return st;
    }
    return recorder.report();
}

} // namespace schedlab::trace
