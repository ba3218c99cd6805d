#include "checkpoint_pickle.h"

#include <cstdio>
#include <unordered_map>

namespace schedlab::rl {

namespace {

// A pickle value. Children are indices into the machine's arena, never owners, so a pickle that
// puts a container inside itself (legal through the memo) cannot leak or recurse.
struct Node {
    enum class Kind { None, Bool, Int, Str, Global, Tuple, List, Dict, Persistent, Reduced, Object };
    Kind kind = Kind::None;
    int64_t i = 0;
    std::string s; // Str; Global as "module name"
    std::vector<int> items; // Tuple, List; Dict as key, value, key, value...
    int a = -1, b = -1; // Persistent: id; Reduced: callable, arguments; Object: class, state
};
using Kind = Node::Kind;

Node make(Kind kind, int64_t i = 0)
{
    Node n;
    n.kind = kind;
    n.i = i;
    return n;
}

constexpr const char* kAllowedGlobals[] = { "__torch__ Module", "torch._utils _rebuild_tensor_v2", "torch FloatStorage",
    "torch LongStorage", "collections OrderedDict" };

Error pickleError(std::string what) { return makeError(ErrorCode::Format, "not a schedlab checkpoint: data.pkl " + what); }

class Machine {
public:
    explicit Machine(std::string_view p)
        : m_p(p)
    {
    }
    Result<int> run();
    const Node& node(int i) const { return m_nodes[std::size_t(i)]; }

private:
    Status step(uint8_t op);
    Status stepValue(uint8_t op, bool& handled);
    Status stepContainer(uint8_t op);
    Status need(std::size_t n) const
    {
        if (m_p.size() - m_pos < n)
            return pickleError("ends inside an instruction at byte " + std::to_string(m_pos));
        return {};
    }
    uint64_t take(std::size_t n)
    {
        uint64_t v = 0;
        for (std::size_t k = n; k-- > 0;)
            v = (v << 8) | uint8_t(m_p[m_pos + k]);
        m_pos += n;
        return v;
    }
    Result<int> push(Node n)
    {
        if (m_nodes.size() >= kMaxPickleValues)
            return pickleError("holds too many values");
        m_nodes.push_back(std::move(n));
        m_stack.push_back(int(m_nodes.size() - 1));
        return int(m_nodes.size() - 1);
    }
    Result<int> pop()
    {
        if (m_stack.empty() || (!m_marks.empty() && m_stack.size() <= m_marks.back()))
            return pickleError("pops an empty stack at byte " + std::to_string(m_pos));
        const int v = m_stack.back();
        m_stack.pop_back();
        return v;
    }
    Result<std::vector<int>> popToMark()
    {
        if (m_marks.empty())
            return pickleError("has no mark at byte " + std::to_string(m_pos));
        std::vector<int> items(m_stack.begin() + std::ptrdiff_t(m_marks.back()), m_stack.end());
        m_stack.resize(m_marks.back());
        m_marks.pop_back();
        return items;
    }
    Result<std::string> line();
    Status memoPut(uint64_t key);

    std::string_view m_p;
    std::size_t m_pos = 0;
    std::vector<Node> m_nodes;
    std::vector<int> m_stack;
    std::vector<std::size_t> m_marks;
    std::unordered_map<uint64_t, int> m_memo;
};

Result<std::string> Machine::line()
{
    const std::size_t nl = m_p.find('\n', m_pos);
    if (nl == std::string_view::npos || nl - m_pos > 256)
        return pickleError("has an unterminated name at byte " + std::to_string(m_pos));
    std::string s(m_p.substr(m_pos, nl - m_pos));
    m_pos = nl + 1;
    return s;
}

Status Machine::memoPut(uint64_t key)
{
    if (m_stack.empty())
        return pickleError("memoizes an empty stack");
    if (m_memo.size() >= kMaxPickleValues)
        return pickleError("memoizes too many values");
    m_memo[key] = m_stack.back();
    return {};
}

// Scalars, names, the memo and globals.
Status Machine::stepValue(uint8_t op, bool& handled)
{
    handled = true;
    auto pushed = [](const Result<int>& r) -> Status { return r ? Status() : Status(r.error()); };
    switch (op) {
    case 'N': return pushed(push({}));
    case 0x88: case 0x89: return pushed(push(make(Kind::Bool, op == 0x88)));
    case 'K': case 'M': case 'J': {
        const std::size_t n = op == 'K' ? 1 : op == 'M' ? 2 : 4;
        if (Status st = need(n); !st)
            return st;
        const uint64_t raw = take(n);
        return pushed(push(make(Kind::Int, op == 'J' ? int64_t(int32_t(uint32_t(raw))) : int64_t(raw))));
    }
    case 0x8a: { // LONG1: n bytes, little-endian two's complement
        if (Status st = need(1); !st)
            return st;
        const std::size_t n = std::size_t(take(1));
        if (n > 8)
            return pickleError("holds an integer of " + std::to_string(n) + " bytes");
        if (Status st = need(n); !st)
            return st;
        uint64_t raw = take(n);
        if (n > 0 && n < 8 && (raw >> (8 * n - 1)) & 1)
            raw |= ~uint64_t(0) << (8 * n);
        return pushed(push(make(Kind::Int, int64_t(raw))));
    }
    case 'X': case 0x8c: {
        const std::size_t w = op == 'X' ? 4 : 1;
        if (Status st = need(w); !st)
            return st;
        const uint64_t n = take(w);
        if (Status st = need(std::size_t(n)); !st)
            return st;
        Node s = make(Kind::Str);
        s.s.assign(m_p.substr(m_pos, std::size_t(n)));
        m_pos += std::size_t(n);
        return pushed(push(std::move(s)));
    }
    case 'c': {
        auto mod = line();
        if (!mod)
            return mod.error();
        auto name = line();
        if (!name)
            return name.error();
        Node g = make(Kind::Global);
        g.s = *mod + " " + *name;
        bool allowed = false;
        for (const char* a : kAllowedGlobals)
            allowed = allowed || g.s == a;
        if (!allowed)
            return pickleError("names " + *mod + "." + *name + ", which a checkpoint never holds (loading it could run code)");
        return pushed(push(std::move(g)));
    }
    case 'q': case 'r': {
        const std::size_t n = op == 'q' ? 1 : 4;
        if (Status st = need(n); !st)
            return st;
        return memoPut(take(n));
    }
    case 0x94: return memoPut(m_memo.size());
    case 'h': case 'j': {
        const std::size_t n = op == 'h' ? 1 : 4;
        if (Status st = need(n); !st)
            return st;
        const auto it = m_memo.find(take(n));
        if (it == m_memo.end())
            return pickleError("reads an unset memo slot at byte " + std::to_string(m_pos));
        m_stack.push_back(it->second);
        return {};
    }
    default: handled = false; return {};
    }
}

// Tuples, lists, dicts, persistent ids, calls and objects.
Status Machine::stepContainer(uint8_t op)
{
    switch (op) {
    case '(':
        m_marks.push_back(m_stack.size());
        return {};
    case ')': case ']': case '}': {
        auto r = push(make(op == ')' ? Kind::Tuple : op == ']' ? Kind::List : Kind::Dict));
        return r ? Status() : Status(r.error());
    }
    case 't': case 0x85: case 0x86: case 0x87: {
        Node t = make(Kind::Tuple);
        if (op == 't') {
            auto items = popToMark();
            if (!items)
                return items.error();
            t.items = std::move(*items);
        } else {
            t.items.resize(std::size_t(op - 0x84));
            for (std::size_t k = t.items.size(); k-- > 0;) {
                auto v = pop();
                if (!v)
                    return v.error();
                t.items[k] = *v;
            }
        }
        auto r = push(std::move(t));
        return r ? Status() : Status(r.error());
    }
    case 'e': case 'a': case 'u': case 's': {
        std::vector<int> items;
        if (op == 'e' || op == 'u') {
            auto marked = popToMark();
            if (!marked)
                return marked.error();
            items = std::move(*marked);
        } else {
            for (int k = op == 's' ? 2 : 1; k > 0; --k) {
                auto v = pop();
                if (!v)
                    return v.error();
                items.insert(items.begin(), *v);
            }
        }
        const bool toDict = op == 'u' || op == 's';
        if (m_stack.empty() || (!m_marks.empty() && m_stack.size() <= m_marks.back())
            || m_nodes[std::size_t(m_stack.back())].kind != (toDict ? Kind::Dict : Kind::List) || (toDict && items.size() % 2))
            return pickleError("adds items to something that is not a " + std::string(toDict ? "dict" : "list"));
        auto& target = m_nodes[std::size_t(m_stack.back())].items;
        if (target.size() + items.size() > kMaxPickleValues)
            return pickleError("holds too many values");
        target.insert(target.end(), items.begin(), items.end());
        return {};
    }
    case 'Q': case 'R': case 0x81: case 'b': {
        auto second = pop();
        if (!second)
            return second.error();
        if (op == 'Q') {
            Node n = make(Kind::Persistent);
            n.a = *second;
            auto r = push(std::move(n));
            return r ? Status() : Status(r.error());
        }
        auto first = pop();
        if (!first)
            return first.error();
        Node n = make(op == 'R' ? Kind::Reduced : Kind::Object);
        n.a = *first;
        n.b = *second;
        if (op == 'b') { // BUILD: state onto an object made by NEWOBJ, once
            Node& obj = m_nodes[std::size_t(*first)];
            if (obj.kind != Kind::Object || obj.b >= 0)
                return pickleError("sets the state of something that is not a new object");
            m_stack.push_back(*first);
            obj.b = *second;
            return {};
        }
        if (op == 0x81)
            n.b = -1; // NEWOBJ's arguments (an empty tuple for a module) are not kept
        auto r = push(std::move(n));
        return r ? Status() : Status(r.error());
    }
    default:
        char buf[8];
        std::snprintf(buf, sizeof buf, "0x%02x", op);
        return pickleError("uses pickle instruction " + std::string(buf) + " (at byte " + std::to_string(m_pos - 1)
            + "), which a checkpoint never holds");
    }
}

Status Machine::step(uint8_t op)
{
    if (op == 0x80) { // PROTO
        if (Status st = need(1); !st)
            return st;
        return take(1) <= 5 ? Status() : pickleError("has an unknown pickle protocol");
    }
    if (op == 0x95) { // FRAME: a length hint
        if (Status st = need(8); !st)
            return st;
        take(8);
        return {};
    }
    bool handled = false;
    if (Status st = stepValue(op, handled); !st || handled)
        return st;
    return stepContainer(op);
}

Result<int> Machine::run()
{
    if (m_p.size() > kMaxPickleBytes)
        return pickleError("is " + std::to_string(m_p.size()) + " bytes (at most " + std::to_string(kMaxPickleBytes) + ")");
    while (m_pos < m_p.size()) {
        const uint8_t op = uint8_t(m_p[m_pos++]);
        if (op == '.') {
            auto top = pop();
            if (!top)
                return top.error();
            if (m_pos != m_p.size() || !m_stack.empty() || !m_marks.empty())
                return pickleError("has values left over at its end");
            return *top;
        }
        if (Status st = step(op); !st)
            return st.error();
    }
    return pickleError("ends without a STOP instruction");
}

// ---- the archive's shape: {name: _rebuild_tensor_v2((storage...), offset, sizes, strides, grad, hooks)}

bool isGlobal(const Machine& m, int i, const char* name)
{
    return i >= 0 && m.node(i).kind == Kind::Global && m.node(i).s == name;
}

const Node* tupleOf(const Machine& m, int i, std::size_t n)
{
    if (i < 0 || m.node(i).kind != Kind::Tuple || m.node(i).items.size() != n)
        return nullptr;
    return &m.node(i);
}

Result<std::vector<int64_t>> intsOf(const Machine& m, int i, const std::string& what)
{
    if (i < 0 || m.node(i).kind != Kind::Tuple || m.node(i).items.size() > 8)
        return pickleError("gives tensor " + what + " a shape that is not a short tuple");
    std::vector<int64_t> out;
    for (int k : m.node(i).items) {
        if (m.node(k).kind != Kind::Int || m.node(k).i < 0)
            return pickleError("gives tensor " + what + " a size that is not a non-negative integer");
        out.push_back(m.node(k).i);
    }
    return out;
}

Result<PickledTensor> tensorOf(const Machine& m, const std::string& name, int v)
{
    const Error notTensor = pickleError("attribute " + name + " is not a tensor as libtorch writes one");
    const Node& call = m.node(v);
    const Node* args = call.kind == Kind::Reduced ? tupleOf(m, call.b, 6) : nullptr;
    if (!args || !isGlobal(m, call.a, "torch._utils _rebuild_tensor_v2"))
        return notTensor;
    const Node& pid = m.node(args->items[0]);
    const Node* storage = pid.kind == Kind::Persistent ? tupleOf(m, pid.a, 5) : nullptr;
    if (!storage)
        return notTensor;
    const Node &tag = m.node(storage->items[0]), &key = m.node(storage->items[2]), &where = m.node(storage->items[3]),
               &count = m.node(storage->items[4]), &offset = m.node(args->items[1]), &grad = m.node(args->items[4]);
    const Node& hooks = m.node(args->items[5]);
    if (tag.kind != Kind::Str || tag.s != "storage" || key.kind != Kind::Str || where.kind != Kind::Str
        || where.s != "cpu" || count.kind != Kind::Int || count.i < 0 || offset.kind != Kind::Int || offset.i < 0
        || grad.kind != Kind::Bool || hooks.kind != Kind::Reduced || !isGlobal(m, hooks.a, "collections OrderedDict")
        || !tupleOf(m, hooks.b, 0))
        return notTensor;
    PickledTensor t;
    t.name = name;
    if (isGlobal(m, storage->items[1], "torch FloatStorage"))
        t.type = PickledTensor::Type::Float32;
    else if (isGlobal(m, storage->items[1], "torch LongStorage"))
        t.type = PickledTensor::Type::Int64;
    else
        return notTensor;
    t.storageKey = key.s;
    t.storageElements = count.i;
    t.offset = offset.i;
    auto sizes = intsOf(m, args->items[2], name);
    auto strides = intsOf(m, args->items[3], name);
    if (!sizes || !strides)
        return sizes ? strides.error() : sizes.error();
    if (sizes->size() != strides->size())
        return pickleError("gives tensor " + name + " " + std::to_string(sizes->size()) + " sizes but "
            + std::to_string(strides->size()) + " strides");
    t.sizes = std::move(*sizes);
    t.strides = std::move(*strides);
    return t;
}

} // namespace

Result<std::vector<PickledTensor>> readTensorPickle(std::string_view pickle)
{
    Machine m(pickle);
    auto root = m.run();
    if (!root)
        return root.error();
    const Node& obj = m.node(*root);
    if (obj.kind != Kind::Object || !isGlobal(m, obj.a, "__torch__ Module") || obj.b < 0
        || m.node(obj.b).kind != Kind::Dict)
        return pickleError("does not hold a module of tensors");
    std::vector<PickledTensor> out;
    const auto& items = m.node(obj.b).items;
    for (std::size_t k = 0; k + 1 < items.size(); k += 2) {
        const Node& key = m.node(items[k]);
        if (key.kind != Kind::Str)
            return pickleError("holds an attribute without a name");
        auto t = tensorOf(m, key.s, items[k + 1]);
        if (!t)
            return t.error();
        out.push_back(std::move(*t));
    }
    return out;
}

bool isEmptyTuplePickle(std::string_view pickle) { return pickle == std::string_view("\x80\x02).", 4); }

} // namespace schedlab::rl
