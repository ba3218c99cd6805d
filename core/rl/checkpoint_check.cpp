#include "checkpoint_check.h"

#include "checkpoint_pickle.h"
#include "checkpoint_zip.h"

#include <cmath>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <vector>

namespace schedlab::rl {

namespace {

Error notCheckpoint(const std::string& why, const std::string& file)
{
    return makeError(ErrorCode::Format, "not a schedlab checkpoint: " + why, file);
}

Error withFile(Error e, const std::string& file)
{
    e.file = file;
    return e;
}

bool isIdentifier(std::string_view s, bool dots)
{
    if (s.empty() || (s[0] >= '0' && s[0] <= '9'))
        return false;
    for (char c : s)
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || (dots && c == '.')))
            return false;
    return true;
}

// The attributes code/__torch__.py declares (annotations) and those its parameter and buffer
// lists name. libtorch sets data.pkl's tensors by these names: the two must agree.
struct Declarations {
    std::set<std::string> attributes, listed;
};

// `"a", "b.c", ]` as libtorch prints a list of attribute names.
bool isNameList(std::string_view s, std::set<std::string>& names)
{
    while (!s.empty() && s[0] == '"') {
        const std::size_t close = s.find('"', 1);
        if (close == std::string_view::npos || !isIdentifier(s.substr(1, close - 1), true) || s.substr(close + 1, 2) != ", ")
            return false;
        names.emplace(s.substr(1, close - 1));
        s.remove_prefix(close + 3);
    }
    return s == "]";
}

bool isDeclaration(std::string_view l, Declarations& d)
{
    auto cut = [&](std::string_view head, std::string_view tail) {
        return l.size() >= head.size() + tail.size() && l.substr(0, head.size()) == head
            && l.substr(l.size() - tail.size()) == tail;
    };
    if (l.empty() || l == "class Module(Module):" || l == "  __annotations__ = []")
        return true;
    for (std::string_view head : { "  __parameters__ = [", "  __buffers__ = [" })
        if (l.substr(0, head.size()) == head)
            return isNameList(l.substr(head.size()), d.listed);
    std::string_view name;
    if (cut("  __annotations__[\"", "\"] = Tensor"))
        name = l.substr(19, l.size() - 19 - 11);
    else if (cut("  ", " : Tensor") && l.find('.') == std::string_view::npos)
        name = l.substr(2, l.size() - 2 - 9);
    if (!isIdentifier(name, true) || !d.attributes.emplace(name).second)
        return false;
    return true;
}

// The module's code may only declare its tensor attributes: libtorch compiles this file when it
// opens the archive, and a method (say __setstate__) would run then.
Status checkDeclarations(std::string_view code, Declarations& d, const std::string& file)
{
    int lineNo = 0;
    bool sawClass = false;
    while (!code.empty()) {
        const std::size_t nl = code.find('\n');
        const std::string_view l = code.substr(0, nl);
        code.remove_prefix(nl == std::string_view::npos ? code.size() : nl + 1);
        ++lineNo;
        if (!isDeclaration(l, d) || (l == "class Module(Module):" && sawClass) || (!l.empty() && !sawClass && l[0] == ' '))
            return notCheckpoint("code/__torch__.py line " + std::to_string(lineNo)
                    + " is not a tensor declaration (a checkpoint holds no code; a module with methods is a "
                      "TorchScript program: open it as torchscript:FILE only if you trust it)",
                file);
        sawClass = sawClass || l == "class Module(Module):";
    }
    if (!sawClass)
        return notCheckpoint("code/__torch__.py declares no module", file);
    for (const std::string& name : d.listed)
        if (!d.attributes.count(name))
            return notCheckpoint("code/__torch__.py lists " + name + " but does not declare it", file);
    return {};
}

// ---- entries ------------------------------------------------------------------------------

struct Archive {
    std::string_view bytes;
    std::string prefix; // "name/"
    std::map<std::string, ZipEntry> entries; // by name inside the folder
    Declarations declared; // by code/__torch__.py
};

bool isKnownEntry(const std::string& name)
{
    static const std::set<std::string> known { "data.pkl", "version", "constants.pkl", "code/__torch__.py",
        "code/__torch__.py.debug_pkl", ".data/version", "byteorder", ".data/serialization_id" };
    return known.count(name) || (name.size() > 5 && name.substr(0, 5) == "data/" && isIdentifier("k" + name.substr(5), false));
}

Result<Archive> readArchive(std::string_view bytes, const std::string& file)
{
    if (bytes.substr(0, 4) != std::string_view("PK\x03\x04", 4))
        return notCheckpoint("not a zip archive (a .slq file is a libtorch archive)", file);
    auto entries = readZipDirectory(bytes);
    if (!entries)
        return withFile(entries.error(), file);
    Archive a { bytes, {}, {}, {} };
    const std::size_t slash = entries->front().name.find('/');
    if (slash == 0 || slash == std::string::npos)
        return notCheckpoint("entry " + entries->front().name + " is not inside the archive's folder", file);
    a.prefix = entries->front().name.substr(0, slash + 1);
    for (ZipEntry& e : *entries) {
        if (e.name.compare(0, a.prefix.size(), a.prefix) != 0)
            return notCheckpoint("entry " + e.name + " is outside the archive's folder " + a.prefix, file);
        std::string inner = e.name.substr(a.prefix.size());
        if (!isKnownEntry(inner))
            return notCheckpoint("entry " + e.name + " is not part of a checkpoint", file);
        a.entries.emplace(std::move(inner), std::move(e));
    }
    for (const char* needed : { "data.pkl", "version", "constants.pkl", "code/__torch__.py" })
        if (!a.entries.count(needed))
            return notCheckpoint("no entry " + a.prefix + needed + " (not a libtorch archive)", file);
    return a;
}

Result<std::string> entryData(const Archive& a, const std::string& inner, const std::string& file)
{
    auto data = readZipEntry(a.bytes, a.entries.at(inner));
    if (!data)
        return withFile(data.error(), file);
    return data;
}

// The small entries: each one's CRC, and what libtorch reads from them before the tensors.
Status checkSmallEntries(Archive& a, const std::string& file)
{
    for (const auto& [inner, e] : a.entries) {
        if (inner.compare(0, 5, "data/") == 0)
            continue; // checked with their tensors
        auto data = entryData(a, inner, file);
        if (!data)
            return data.error();
        const std::string& d = *data;
        if (inner == "version" || inner == ".data/version") {
            const std::string digits = d.substr(0, d.find_last_not_of('\n') + 1);
            if (digits.empty() || digits.size() > 4 || digits.find_first_not_of("0123456789") != std::string::npos)
                return notCheckpoint("entry " + e.name + " is not a version number", file);
        } else if (inner == "byteorder" && d != "little") {
            return notCheckpoint("written on a big-endian machine (byteorder '" + d.substr(0, 16) + "')", file);
        } else if (inner == "constants.pkl" && !isEmptyTuplePickle(d)) {
            return notCheckpoint("entry " + e.name + " holds constants (a checkpoint has none)", file);
        } else if (inner == "code/__torch__.py") {
            if (Status st = checkDeclarations(d, a.declared, file); !st)
                return st;
        }
    }
    return {};
}

// ---- tensors ------------------------------------------------------------------------------

struct Tensor {
    PickledTensor t;
    std::string_view data; // its storage's bytes, CRC checked
};

std::string shapeText(const std::vector<int64_t>& s)
{
    std::string out = "[";
    for (std::size_t i = 0; i < s.size(); ++i)
        out += (i ? ", " : "") + std::to_string(s[i]);
    return out + "]";
}

// The storage entry holds exactly the tensor's elements, laid out contiguously.
Status placeTensor(const Archive& a, const PickledTensor& t, Tensor& out, const std::string& file)
{
    const std::string what = "checkpoint tensor " + t.name;
    const auto it = a.entries.find("data/" + t.storageKey);
    if (it == a.entries.end())
        return notCheckpoint(what + " refers to a missing entry data/" + t.storageKey, file);
    const int64_t elemSize = t.type == PickledTensor::Type::Float32 ? 4 : 8;
    if (t.storageElements > int64_t(kMaxCheckpointBytes) / elemSize || uint64_t(t.storageElements * elemSize) != it->second.size)
        return notCheckpoint(what + ": entry " + it->second.name + " holds " + std::to_string(it->second.size)
                + " bytes, its storage " + std::to_string(t.storageElements) + " elements of " + std::to_string(elemSize),
            file);
    int64_t expect = 1;
    for (std::size_t d = t.sizes.size(); d-- > 0;) {
        if (t.strides[d] != expect && t.sizes[d] != 1)
            return notCheckpoint(what + " is not laid out contiguously", file);
        if (t.sizes[d] > 0 && expect > t.storageElements / t.sizes[d])
            return notCheckpoint(what + " has shape " + shapeText(t.sizes) + ", more than its storage holds", file);
        expect *= t.sizes[d];
    }
    if (t.offset != 0 || expect != t.storageElements)
        return notCheckpoint(what + " has shape " + shapeText(t.sizes) + " but its storage holds "
                + std::to_string(t.storageElements) + " elements",
            file);
    auto data = storedZipEntry(a.bytes, it->second);
    if (!data)
        return withFile(data.error(), file);
    out = Tensor { t, *data };
    return {};
}

Result<std::map<std::string, Tensor>> readTensors(const Archive& a, const std::string& file)
{
    auto pickle = entryData(a, "data.pkl", file);
    if (!pickle)
        return pickle.error();
    auto list = readTensorPickle(*pickle);
    if (!list)
        return withFile(list.error(), file);
    std::map<std::string, Tensor> tensors;
    std::set<std::string> storages;
    for (const PickledTensor& t : *list) {
        // Names and keys go into messages and lookups: plain identifiers only, as libtorch writes.
        if (t.name.size() > 256 || !isIdentifier(t.name, true) || t.storageKey.size() > 32
            || !isIdentifier("k" + t.storageKey, false))
            return notCheckpoint("data.pkl holds a tensor whose name or storage key is not a plain identifier", file);
        if (!storages.insert(t.storageKey).second || tensors.count(t.name))
            return notCheckpoint("tensor " + t.name + " or its storage appears twice", file);
        if (!a.declared.attributes.count(t.name))
            return notCheckpoint("data.pkl holds tensor " + t.name + ", which code/__torch__.py does not declare", file);
        if (Status st = placeTensor(a, t, tensors[t.name], file); !st)
            return st.error();
    }
    for (const std::string& name : a.declared.attributes)
        if (!tensors.count(name))
            return notCheckpoint("code/__torch__.py declares " + name + ", which data.pkl does not hold", file);
    for (const auto& [inner, e] : a.entries)
        if (inner.compare(0, 5, "data/") == 0 && !storages.count(inner.substr(5)))
            return notCheckpoint("entry " + e.name + " belongs to no tensor", file);
    return tensors;
}

int64_t int64At(std::string_view data, std::size_t i)
{
    uint64_t v = 0;
    for (std::size_t k = 8; k-- > 0;)
        v = (v << 8) | uint8_t(data[i * 8 + k]);
    return int64_t(v);
}

Result<std::vector<int64_t>> longsOf(const std::map<std::string, Tensor>& tensors, const std::string& name)
{
    const auto it = tensors.find(name);
    if (it == tensors.end())
        return std::vector<int64_t> {};
    if (it->second.t.type != PickledTensor::Type::Int64)
        return makeError(ErrorCode::Format, name + " record is not int64");
    std::vector<int64_t> out;
    for (std::size_t i = 0; i < it->second.data.size() / 8; ++i)
        out.push_back(int64At(it->second.data, i));
    return out;
}

// meta [magic, format version, features, hidden1, hidden2]: the shape the layers must have.
Result<std::map<std::string, std::vector<int64_t>>> layerShapes(const std::map<std::string, Tensor>& tensors,
    const std::string& file)
{
    auto meta = longsOf(tensors, "meta");
    if (!meta || meta->size() != 5 || (*meta)[0] != kCheckpointMagic)
        return notCheckpoint("no meta record", file);
    const int64_t version = (*meta)[1], f = (*meta)[2], h1 = (*meta)[3], h2 = (*meta)[4];
    if (version > kCheckpointFormatVersion)
        return makeError(ErrorCode::Format, "checkpoint format " + std::to_string(version) + " is newer than this build reads ("
                + std::to_string(kCheckpointFormatVersion) + ")", file);
    if (version < 1 || f < 1 || f > 4096 || h1 < 1 || h1 > 65536 || h2 < 1 || h2 > 65536)
        return makeError(ErrorCode::Format, "checkpoint has an impossible network shape", file);
    return std::map<std::string, std::vector<int64_t>> { { "fc1.weight", { h1, f } }, { "fc1.bias", { h1 } },
        { "fc2.weight", { h2, h1 } }, { "fc2.bias", { h2 } }, { "fc3.weight", { 1, h2 } }, { "fc3.bias", { 1 } } };
}

Status checkLayer(const std::string& name, const std::vector<int64_t>& shape, const std::map<std::string, Tensor>& tensors,
    const std::string& file)
{
    const std::string what = "checkpoint tensor " + name;
    const auto it = tensors.find(name);
    if (it == tensors.end())
        return makeError(ErrorCode::Format, "checkpoint lacks tensor " + name, file);
    const Tensor& t = it->second;
    if (t.t.type != PickledTensor::Type::Float32)
        return makeError(ErrorCode::Format, what + " is not float32", file);
    if (t.t.sizes != shape)
        return makeError(ErrorCode::Format, what + " has shape " + shapeText(t.t.sizes) + ", expected " + shapeText(shape)
                + " (the meta record's network)", file);
    // "fc2.weight" -> "layer 2 weight"
    const std::string layer = "layer " + name.substr(2, 1) + " " + name.substr(4);
    for (std::size_t i = 0; i < t.data.size() / 4; ++i) {
        float v;
        std::memcpy(&v, t.data.data() + 4 * i, 4);
        if (!std::isfinite(v))
            return makeError(ErrorCode::Format, what + " holds " + (std::isnan(v) ? "NaN" : "an infinite value") + " at index "
                    + std::to_string(i) + " (" + layer + ")", file);
    }
    return {};
}

Status checkRecords(const std::map<std::string, Tensor>& tensors, const std::string& file)
{
    auto pre = longsOf(tensors, "preselect");
    if (!pre || (!pre->empty() && (pre->size() != 2 || (*pre)[0] < 1 || (*pre)[1] < 1 || (*pre)[0] > 1'000'000'000
                                      || (*pre)[1] > 1'000'000'000)))
        return makeError(ErrorCode::Format, "checkpoint has an impossible preselect record", file);
    auto skip = longsOf(tensors, "skip");
    if (!skip || (!skip->empty() && (skip->size() != 1 || (*skip)[0] < 1 || (*skip)[0] > 1'000'000)))
        return makeError(ErrorCode::Format, "checkpoint has an impossible skip record", file);
    return {};
}

} // namespace

Status checkCheckpoint(std::string_view bytes, const std::string& file)
{
    if (bytes.size() > kMaxCheckpointBytes)
        return makeError(ErrorCode::Format, "checkpoint of " + std::to_string(bytes.size()) + " bytes (at most "
                + std::to_string(kMaxCheckpointBytes) + ")", file);
    auto archive = readArchive(bytes, file);
    if (!archive)
        return archive.error();
    if (Status st = checkSmallEntries(*archive, file); !st)
        return st;
    auto tensors = readTensors(*archive, file);
    if (!tensors)
        return tensors.error();
    auto shapes = layerShapes(*tensors, file);
    if (!shapes)
        return shapes.error();
    for (const auto& [name, shape] : *shapes)
        if (Status st = checkLayer(name, shape, *tensors, file); !st)
            return st;
    return checkRecords(*tensors, file);
}

Status checkCheckpointFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in)
        return makeError(ErrorCode::Io, "checkpoint file cannot be read", path);
    const std::streamoff size = in.tellg();
    if (size < 0 || uint64_t(size) > kMaxCheckpointBytes)
        return makeError(ErrorCode::Format, "checkpoint of " + std::to_string(size) + " bytes (at most "
                + std::to_string(kMaxCheckpointBytes) + ")", path);
    std::string bytes(std::size_t(size), '\0');
    in.seekg(0);
    if (!in.read(bytes.data(), size))
        return makeError(ErrorCode::Io, "checkpoint file cannot be read", path);
    return checkCheckpoint(bytes, path);
}

} // namespace schedlab::rl
