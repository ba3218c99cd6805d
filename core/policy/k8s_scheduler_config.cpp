// KubeSchedulerConfiguration: parsing (yaml-cpp) with errors naming the line and the path, and the
// configured NodeResourcesFit / BalancedAllocation scores (k8s_scheduler_config.h).

#include "k8s_scheduler_config.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <initializer_list>
#include <map>
#include <optional>
#include <set>
#include <sstream>

namespace schedlab::policy {

const char* fitStrategyName(FitStrategy s)
{
    switch (s) {
    case FitStrategy::LeastAllocated: return "LeastAllocated";
    case FitStrategy::MostAllocated: return "MostAllocated";
    case FitStrategy::RequestedToCapacityRatio: return "RequestedToCapacityRatio";
    }
    return "?";
}

namespace {

const char* resourceName(K8sResource r)
{
    switch (r) {
    case K8sResource::Cpu: return "cpu";
    case K8sResource::Memory: return "memory";
    case K8sResource::Gpu: return "nvidia.com/gpu";
    }
    return "?";
}

/// kube-scheduler's default score plugins and weights (v1: the multiPoint defaults).
const std::map<std::string, int64_t>& defaultScoreWeights()
{
    static const std::map<std::string, int64_t> w = { { "NodeResourcesFit", 1 }, { "NodeResourcesBalancedAllocation", 1 },
        { "TaintToleration", 3 }, { "NodeAffinity", 2 }, { "PodTopologySpread", 2 }, { "InterPodAffinity", 2 },
        { "ImageLocality", 1 } };
    return w;
}

class Parser {
public:
    explicit Parser(std::string name)
        : m_name(std::move(name))
    {
    }

    Result<KubeSchedulerConfig> parse(const std::string& text)
    {
        YAML::Node root;
        try {
            root = YAML::Load(text);
        } catch (const YAML::ParserException& e) {
            return Error { ErrorCode::Parse, "not YAML: " + e.msg, m_name, e.mark.line >= 0 ? e.mark.line + 1 : -1, -1 };
        }
        if (!root.IsMap())
            return fail(root, "", "not a KubeSchedulerConfiguration (a YAML mapping with apiVersion and kind)");
        const std::string api = scalar(root["apiVersion"]), kind = scalar(root["kind"]);
        if (kind != "KubeSchedulerConfiguration")
            return fail(root["kind"] ? root["kind"] : root, "kind", "'" + kind + "' is not KubeSchedulerConfiguration");
        if (api != "kubescheduler.config.k8s.io/v1" && api != "kubescheduler.config.k8s.io/v1beta3"
            && api != "kubescheduler.config.k8s.io/v1beta2")
            return fail(root["apiVersion"] ? root["apiVersion"] : root, "apiVersion",
                "'" + api + "' is not kubescheduler.config.k8s.io/v1 (or v1beta3, v1beta2)");
        if (!knownKeys(root, "", { "apiVersion", "kind", "parallelism", "leaderElection", "clientConnection", "healthzBindAddress",
                "metricsBindAddress", "enableProfiling", "enableContentionProfiling", "percentageOfNodesToScore",
                "podInitialBackoffSeconds", "podMaxBackoffSeconds", "profiles", "extenders", "delayCacheUntilActive" }))
            return *m_error;
        KubeSchedulerConfig c;
        c.percentageOfNodesToScore = 0; // unset in the file: kube-scheduler's adaptive percentage
        if (const YAML::Node p = root["percentageOfNodesToScore"]; p && !p.IsNull())
            if (!integer(p, "percentageOfNodesToScore", 0, 100, c.percentageOfNodesToScore))
                return *m_error;

        std::map<std::string, int64_t> weights = defaultScoreWeights();
        const YAML::Node profiles = root["profiles"];
        if (profiles && !profiles.IsSequence())
            return fail(profiles, "profiles", "expected a list of profiles");
        // The profile named default-scheduler (a profile without a name is it), else the first.
        YAML::Node profile;
        std::string at;
        bool haveProfile = false; // (a default-constructed YAML::Node counts as defined)
        for (std::size_t i = 0; profiles && i < profiles.size(); ++i) {
            const std::string name = scalar(profiles[i]["schedulerName"]);
            if (name.empty() || name == "default-scheduler") {
                profile = profiles[i];
                at = "profiles[" + std::to_string(i) + "]";
                haveProfile = true;
                break;
            }
        }
        if (!haveProfile && profiles && profiles.size() > 0) {
            profile = profiles[0];
            at = "profiles[0]";
            haveProfile = true;
        }
        if (haveProfile) {
            if (!profile.IsMap())
                return fail(profile, at, "expected a profile (a mapping)");
            for (std::size_t i = 0; i < profiles.size(); ++i)
                if (!knownKeys(profiles[i], "profiles[" + std::to_string(i) + "]", { "schedulerName", "percentageOfNodesToScore", "plugins", "pluginConfig" }))
                    return *m_error;
            const std::string name = scalar(profile["schedulerName"]);
            c.profile = name.empty() ? "default-scheduler" : name;
            if (const YAML::Node p = profile["percentageOfNodesToScore"]; p && !p.IsNull())
                if (!integer(p, at + ".percentageOfNodesToScore", 0, 100, c.percentageOfNodesToScore))
                    return *m_error;
            if (const YAML::Node plugins = profile["plugins"]) {
                if (!knownKeys(plugins, at + ".plugins", { "preEnqueue", "queueSort", "preFilter", "filter", "postFilter", "preScore",
                        "score", "reserve", "permit", "preBind", "bind", "postBind", "multiPoint" }))
                    return *m_error;
                // multiPoint first, then score: score's settings win.
                for (const char* point : { "multiPoint", "score" })
                    if (const YAML::Node set = plugins[point])
                        if (!pluginSet(set, at + ".plugins." + point, weights))
                            return *m_error;
            }
            if (const YAML::Node configs = profile["pluginConfig"]) {
                if (!configs.IsSequence())
                    return fail(configs, at + ".pluginConfig", "expected a list of {name, args}");
                for (std::size_t i = 0; i < configs.size(); ++i) {
                    const std::string pat = at + ".pluginConfig[" + std::to_string(i) + "]";
                    if (!knownKeys(configs[i], pat, { "name", "args" }))
                        return *m_error;
                    const std::string plugin = scalar(configs[i]["name"]);
                    const YAML::Node args = configs[i]["args"];
                    if (plugin == "NodeResourcesFit" && args) {
                        if (!fitArgs(args, pat + ".args", c))
                            return *m_error;
                    } else if (plugin == "NodeResourcesBalancedAllocation" && args) {
                        if (!balancedArgs(args, pat + ".args", c))
                            return *m_error;
                    }
                }
            }
        }
        const auto take = [&](const char* name) {
            const auto it = weights.find(name);
            const int64_t w = it == weights.end() ? 0 : it->second;
            if (it != weights.end())
                weights.erase(it);
            return w;
        };
        c.fitWeight = take("NodeResourcesFit");
        c.balancedWeight = take("NodeResourcesBalancedAllocation");
        for (const auto& [name, w] : weights)
            c.unmodelled.push_back(name + " x" + std::to_string(w));
        return c;
    }

private:
    std::string scalar(const YAML::Node& n) const { return n && n.IsScalar() ? n.Scalar() : std::string(); }

    Error fail(const YAML::Node& at, const std::string& path, const std::string& message)
    {
        const YAML::Mark m = at ? at.Mark() : YAML::Mark::null_mark();
        m_error = Error { ErrorCode::Parse, (path.empty() ? "" : path + ": ") + message, m_name, m.line >= 0 ? m.line + 1 : -1, -1 };
        return *m_error;
    }

    template <typename T>
    bool integer(const YAML::Node& n, const std::string& path, int64_t lo, int64_t hi, T& out)
    {
        int64_t v = 0;
        if (!n.IsScalar() || !YAML::convert<int64_t>::decode(n, v) || v < lo || v > hi) {
            fail(n, path, "'" + scalar(n) + "' is not an integer in " + std::to_string(lo) + ".." + std::to_string(hi));
            return false;
        }
        out = T(v);
        return true;
    }

    /// kube-scheduler decodes its configuration strictly (kubernetes#83030): a field it does not
    /// know, or one given twice, stops it from starting. So here too, with the field's line.
    bool knownKeys(const YAML::Node& map, const std::string& at, std::initializer_list<const char*> known)
    {
        if (!map || map.IsNull())
            return true;
        if (!map.IsMap())
            return fail(map, at, "expected a mapping"), false;
        std::set<std::string> seen;
        for (auto it = map.begin(); it != map.end(); ++it) {
            const std::string key = scalar(it->first);
            const std::string path = (at.empty() ? "" : at + ".") + key;
            if (std::find_if(known.begin(), known.end(), [&](const char* k) { return key == k; }) == known.end()) {
                std::string list;
                for (const char* k : known)
                    list += (list.empty() ? "" : ", ") + std::string(k);
                return fail(it->first, path, "unknown field '" + key + "' (kube-scheduler refuses it; known here: " + list + ")"), false;
            }
            if (!seen.insert(key).second)
                return fail(it->first, path, "field '" + key + "' given twice (kube-scheduler refuses it)"), false;
        }
        return true;
    }

    bool pluginSet(const YAML::Node& set, const std::string& at, std::map<std::string, int64_t>& weights)
    {
        if (!knownKeys(set, at, { "enabled", "disabled" }))
            return false;
        if (const YAML::Node disabled = set["disabled"]) {
            if (!disabled.IsSequence())
                return fail(disabled, at + ".disabled", "expected a list of {name}"), false;
            for (std::size_t i = 0; i < disabled.size(); ++i) {
                if (!knownKeys(disabled[i], at + ".disabled[" + std::to_string(i) + "]", { "name", "weight" }))
                    return false;
                const std::string name = scalar(disabled[i]["name"]);
                if (name == "*")
                    weights.clear();
                else
                    weights.erase(name);
            }
        }
        if (const YAML::Node enabled = set["enabled"]) {
            if (!enabled.IsSequence())
                return fail(enabled, at + ".enabled", "expected a list of {name, weight}"), false;
            for (std::size_t i = 0; i < enabled.size(); ++i) {
                const std::string pat = at + ".enabled[" + std::to_string(i) + "]";
                if (!knownKeys(enabled[i], pat, { "name", "weight" }))
                    return false;
                const std::string name = scalar(enabled[i]["name"]);
                if (name.empty())
                    return fail(enabled[i], pat + ".name", "a plugin needs its name"), false;
                int64_t weight = 0;
                if (const YAML::Node w = enabled[i]["weight"]; w && !w.IsNull())
                    if (!integer(w, pat + ".weight", 0, 100000, weight))
                        return false;
                if (weight == 0) { // not given: the plugin's default weight
                    const auto d = defaultScoreWeights().find(name);
                    weight = d == defaultScoreWeights().end() ? 1 : d->second;
                }
                weights[name] = weight;
            }
        }
        return true;
    }

    /// A list of {name, weight}: cpu, memory and GPUs are modelled; others have no allocatable
    /// in schedlab's nodes and kube-scheduler leaves such resources out, so they are noted.
    bool resources(const YAML::Node& list, const std::string& at, std::vector<K8sResourceWeight>& out, KubeSchedulerConfig& c)
    {
        if (!list.IsSequence())
            return fail(list, at, "expected a list of {name, weight}"), false;
        out.clear();
        for (std::size_t i = 0; i < list.size(); ++i) {
            const std::string pat = at + "[" + std::to_string(i) + "]";
            if (!knownKeys(list[i], pat, { "name", "weight" }))
                return false;
            const std::string name = scalar(list[i]["name"]);
            int64_t weight = 1;
            if (const YAML::Node w = list[i]["weight"]; w && !w.IsNull())
                if (!integer(w, pat + ".weight", 1, 100, weight))
                    return false;
            if (name == "cpu")
                out.push_back({ K8sResource::Cpu, weight });
            else if (name == "memory")
                out.push_back({ K8sResource::Memory, weight });
            else if (name == "nvidia.com/gpu" || name == "amd.com/gpu")
                out.push_back({ K8sResource::Gpu, weight });
            else if (name.empty())
                return fail(list[i], pat + ".name", "a resource needs its name"), false;
            else
                c.unmodelled.push_back("resource " + name + " (no node has it here)");
        }
        return true;
    }

    bool fitArgs(const YAML::Node& args, const std::string& at, KubeSchedulerConfig& c)
    {
        if (!knownKeys(args, at, { "apiVersion", "kind", "ignoredResources", "ignoredResourceGroups", "scoringStrategy" }))
            return false;
        const YAML::Node s = args["scoringStrategy"];
        if (!s)
            return true;
        if (!knownKeys(s, at + ".scoringStrategy", { "type", "resources", "requestedToCapacityRatio" }))
            return false;
        const std::string type = scalar(s["type"]);
        if (type == "LeastAllocated" || type.empty())
            c.strategy = FitStrategy::LeastAllocated;
        else if (type == "MostAllocated")
            c.strategy = FitStrategy::MostAllocated;
        else if (type == "RequestedToCapacityRatio")
            c.strategy = FitStrategy::RequestedToCapacityRatio;
        else
            return fail(s["type"], at + ".scoringStrategy.type",
                       "'" + type + "' is not LeastAllocated, MostAllocated or RequestedToCapacityRatio"),
                   false;
        if (const YAML::Node r = s["resources"])
            if (!resources(r, at + ".scoringStrategy.resources", c.fitResources, c))
                return false;
        if (const YAML::Node ratio = s["requestedToCapacityRatio"]) {
            if (!knownKeys(ratio, at + ".scoringStrategy.requestedToCapacityRatio", { "shape" }))
                return false;
            const YAML::Node shape = ratio["shape"];
            const std::string sat = at + ".scoringStrategy.requestedToCapacityRatio.shape";
            if (!shape || !shape.IsSequence() || shape.size() == 0)
                return fail(shape ? shape : ratio, sat, "expected a list of {utilization, score}"), false;
            c.shape.clear();
            for (std::size_t i = 0; i < shape.size(); ++i) {
                const std::string pat = sat + "[" + std::to_string(i) + "]";
                if (shape[i].IsMap() && !knownKeys(shape[i], pat, { "utilization", "score" }))
                    return false;
                ShapePoint p;
                if (!integer(shape[i]["utilization"] ? shape[i]["utilization"] : shape[i], pat + ".utilization", 0, 100, p.utilization)
                    || !integer(shape[i]["score"] ? shape[i]["score"] : shape[i], pat + ".score", 0, 10, p.score))
                    return false;
                if (!c.shape.empty() && p.utilization <= c.shape.back().utilization)
                    return fail(shape[i], pat + ".utilization", "utilization values must be increasing"), false;
                c.shape.push_back(p);
            }
        }
        return true;
    }

    bool balancedArgs(const YAML::Node& args, const std::string& at, KubeSchedulerConfig& c)
    {
        if (!knownKeys(args, at, { "apiVersion", "kind", "resources" }))
            return false;
        const YAML::Node r = args["resources"];
        if (!r)
            return true;
        std::vector<K8sResourceWeight> list;
        if (!resources(r, at + ".resources", list, c))
            return false;
        c.balancedResources.clear();
        for (const K8sResourceWeight& w : list)
            c.balancedResources.push_back(w.resource);
        return true;
    }

    std::string m_name;
    std::optional<Error> m_error;
};

/// Requested (with the pod) and allocatable of one resource on node n.
std::pair<int64_t, int64_t> amounts(K8sResource res, const cluster::ClusterState& c, int n, const trace::TaskRequest& r)
{
    switch (res) {
    case K8sResource::Cpu: return { c.capCpu(n) - c.freeCpu(n) + r.cpuMilli, c.capCpu(n) };
    case K8sResource::Memory: return { c.capMem(n) - c.freeMem(n) + r.memMiB, c.capMem(n) };
    case K8sResource::Gpu: {
        const int64_t cap = int64_t(c.numGpu(n)) * cluster::kGpuMilli;
        return { cap - c.freeGpuMilli(n) + r.totalGpuMilli(), cap };
    }
    }
    return { 0, 0 };
}

int64_t brokenLine(const std::vector<ShapePoint>& shape, int64_t p)
{
    // Scores x 10: kube-scheduler's MaxNodeScore / MaxCustomPriorityScore.
    for (std::size_t i = 0; i < shape.size(); ++i)
        if (p <= shape[i].utilization) {
            if (i == 0)
                return shape[0].score * 10;
            const ShapePoint &a = shape[i - 1], &b = shape[i];
            return a.score * 10 + (b.score * 10 - a.score * 10) * (p - a.utilization) / (b.utilization - a.utilization);
        }
    return shape.back().score * 10;
}

} // namespace

std::string KubeSchedulerConfig::summary() const
{
    std::ostringstream s;
    s << "NodeResourcesFit " << fitStrategyName(strategy) << " (";
    for (std::size_t i = 0; i < fitResources.size(); ++i)
        s << (i ? ", " : "") << resourceName(fitResources[i].resource) << " " << fitResources[i].weight;
    s << ") x" << fitWeight << " + NodeResourcesBalancedAllocation x" << balancedWeight;
    if (strategy == FitStrategy::RequestedToCapacityRatio) {
        s << "; shape";
        for (const ShapePoint& p : shape)
            s << " " << p.utilization << ":" << p.score;
    }
    if (percentageOfNodesToScore < 0)
        s << "; every node scored";
    else if (percentageOfNodesToScore == 0)
        s << "; adaptive percentage of nodes to score";
    else
        s << "; " << percentageOfNodesToScore << " % of nodes to score";
    return s.str();
}

Result<KubeSchedulerConfig> parseKubeSchedulerConfig(const std::string& yaml, const std::string& name)
{
    Parser p(name);
    try {
        return p.parse(yaml);
    } catch (const YAML::Exception& e) { // a mapping where a scalar belongs, and the like
        return Error { ErrorCode::Parse, "not a KubeSchedulerConfiguration: " + e.msg, name, e.mark.line >= 0 ? e.mark.line + 1 : -1, -1 };
    }
}

Result<KubeSchedulerConfig> readKubeSchedulerConfig(const std::string& path, std::string* textOut)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return makeError(ErrorCode::Io, "cannot read the scheduler configuration", path);
    std::string text;
    char buf[65536];
    while (in.read(buf, sizeof buf) || in.gcount() > 0) {
        text.append(buf, std::size_t(in.gcount()));
        if (text.size() > (1u << 20))
            return makeError(ErrorCode::Range, "larger than 1 MiB: not a scheduler configuration", path);
    }
    auto parsed = parseKubeSchedulerConfig(text, path);
    if (parsed && textOut)
        *textOut = std::move(text);
    return parsed;
}

K8sConfiguredScore kubernetesConfiguredScore(const KubeSchedulerConfig& config, const cluster::ClusterState& c, int n, const trace::TaskRequest& r)
{
    K8sConfiguredScore s;
    if (config.fitWeight > 0) {
        int64_t sum = 0, weights = 0;
        for (const K8sResourceWeight& w : config.fitResources) {
            const auto [requested, allocatable] = amounts(w.resource, c, n, r);
            if (allocatable == 0)
                continue;
            int64_t score = 0;
            switch (config.strategy) {
            case FitStrategy::LeastAllocated:
                score = requested > allocatable ? 0 : (allocatable - requested) * 100 / allocatable;
                break;
            case FitStrategy::MostAllocated:
                score = std::min(requested, allocatable) * 100 / allocatable;
                break;
            case FitStrategy::RequestedToCapacityRatio:
                score = brokenLine(config.shape, requested > allocatable ? 100 : requested * 100 / allocatable);
                if (score <= 0)
                    continue; // kube-scheduler leaves resources scoring 0 out of the mean
                break;
            }
            sum += score * w.weight;
            weights += w.weight;
        }
        if (weights > 0)
            s.fit = config.strategy == FitStrategy::RequestedToCapacityRatio ? int64_t(std::llround(double(sum) / double(weights)))
                                                                             : sum / weights;
    }
    if (config.balancedWeight > 0) {
        double f[3];
        int k = 0;
        for (K8sResource res : config.balancedResources) {
            const auto [requested, allocatable] = amounts(res, c, n, r);
            if (allocatable == 0 || k == 3)
                continue;
            f[k++] = std::min(1.0, double(requested) / double(allocatable));
        }
        double sd = 0;
        if (k == 2) {
            sd = std::abs((f[0] - f[1]) / 2);
        } else if (k > 2) {
            double mean = 0;
            for (int i = 0; i < k; ++i)
                mean += f[i];
            mean /= k;
            double var = 0;
            for (int i = 0; i < k; ++i)
                var += (f[i] - mean) * (f[i] - mean);
            sd = std::sqrt(var / k);
        }
        s.balanced = int64_t((1.0 - sd) * 100.0);
    }
    s.total = s.fit * config.fitWeight + s.balanced * config.balancedWeight;
    return s;
}

int feasibleNodesToFind(const KubeSchedulerConfig& config, int nodes)
{
    constexpr int kMinFeasible = 100, kMinPercentage = 5;
    if (config.percentageOfNodesToScore < 0 || nodes < kMinFeasible)
        return nodes;
    int pct = config.percentageOfNodesToScore;
    if (pct == 0)
        pct = std::max(kMinPercentage, 50 - nodes / 125);
    const int want = int(int64_t(nodes) * pct / 100);
    return std::max(kMinFeasible, want);
}

} // namespace schedlab::policy
