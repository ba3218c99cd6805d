#include "torch_module_impl.h"

#include "q_network_impl.h"
#include "rl/checkpoint_check.h"

#pragma push_macro("slots")
#undef slots
#include <torch/script.h>
#pragma pop_macro("slots")

#include <cmath>
#include <cstdio>
#include <dlfcn.h>
#include <malloc.h>
#include <mutex>
#include <fcntl.h>
#include <sstream>
#include <unistd.h>

namespace schedlab::rl {

namespace {
Error torchError(const std::string& what, const std::string& file, const std::exception& e)
{
    std::string msg = e.what();
    // c10 messages carry a C++ backtrace after the first line; the first line is the message.
    if (auto nl = msg.find('\n'); nl != std::string::npos)
        msg.resize(nl);
    return Error { ErrorCode::Format, what + ": " + msg, file, -1, -1 };
}

Status syncAndRename(const std::string& tmp, const std::string& path)
{
    const int fd = ::open(tmp.c_str(), O_RDONLY);
    if (fd < 0 || ::fsync(fd) != 0) {
        if (fd >= 0)
            ::close(fd);
        std::remove(tmp.c_str());
        return makeError(ErrorCode::Io, "cannot sync the new checkpoint", tmp);
    }
    ::close(fd);
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        std::remove(tmp.c_str());
        return makeError(ErrorCode::Io, "cannot move the new checkpoint into place", path);
    }
    return {};
}
} // namespace

// Determinism, and the batches here (at most a few thousand rows of 16-64 floats) only lose time
// to thread hand-offs: torch's intra-op pool and, when Debian's libblas is OpenBLAS, its own
// pthreads (found at run time so any BLAS works). Process-wide; done once.
void configureTorchRuntime()
{
    static std::once_flag once;
    std::call_once(once, [] {
        at::set_num_threads(1);
        using SetThreads = void (*)(int);
        if (auto f = reinterpret_cast<SetThreads>(::dlsym(RTLD_DEFAULT, "openblas_set_num_threads")))
            f(1);
        // Each gradient step or scoring allocates and frees the same few 100 KiB tensors; glibc
        // would mmap and unmap them every time and the page faults cost more than the arithmetic
        // (measured: 4x slower training). Keep such blocks in the heap; trim it lazily.
        ::mallopt(M_MMAP_THRESHOLD, 64 << 20);
        ::mallopt(M_TRIM_THRESHOLD, 256 << 20);
    });
}

TorchQNetwork::TorchQNetwork(std::unique_ptr<QNetworkImpl> impl, Shape shape)
    : QNetwork(shape)
    , m(std::move(impl))
{
}

TorchQNetwork::~TorchQNetwork() = default;

std::unique_ptr<TorchQNetwork> TorchQNetwork::create(uint64_t seed, Shape shape)
{
    configureTorchRuntime();
    torch::manual_seed(seed);
    auto impl = std::make_unique<QNetworkImpl>(QNetworkImpl { Mlp(shape.features, shape.hidden1, shape.hidden2) });
    return std::unique_ptr<TorchQNetwork>(new TorchQNetwork(std::move(impl), shape));
}

Status TorchQNetwork::save(const std::string& path) const
{
    const std::string tmp = path + ".tmp-" + std::to_string(::getpid());
    try {
        torch::serialize::OutputArchive ar;
        for (const auto& p : m->net->named_parameters())
            ar.write(p.key(), p.value().detach().clone());
        ar.write("meta", torch::tensor({ kCheckpointMagic, kCheckpointFormatVersion, int64_t(m_shape.features), int64_t(m_shape.hidden1),
                             int64_t(m_shape.hidden2) },
                             torch::kInt64));
        if (m_preselect.above > 0 && m_preselect.top > 0)
            ar.write("preselect", torch::tensor({ int64_t(m_preselect.above), int64_t(m_preselect.top) }, torch::kInt64));
        if (m_skipWaits > 0)
            ar.write("skip", torch::tensor({ int64_t(m_skipWaits) }, torch::kInt64));
        ar.save_to(tmp);
    } catch (const std::exception& e) {
        std::remove(tmp.c_str());
        return torchError("cannot write checkpoint", path, e);
    }
    return syncAndRename(tmp, path);
}

Result<std::unique_ptr<QNetwork>> TorchQNetwork::load(const std::string& path)
{
    if (::access(path.c_str(), R_OK) != 0)
        return makeError(ErrorCode::Io, "checkpoint file cannot be read", path);
    try {
        torch::serialize::InputArchive ar;
        ar.load_from(path);
        torch::Tensor meta;
        if (!ar.try_read("meta", meta) || meta.scalar_type() != torch::kInt64 || meta.numel() != 5
            || meta[0].item<int64_t>() != kCheckpointMagic)
            return makeError(ErrorCode::Format, "not a schedlab checkpoint (no meta record)", path);
        if (meta[1].item<int64_t>() > kCheckpointFormatVersion)
            return makeError(ErrorCode::Format, "checkpoint format " + std::to_string(meta[1].item<int64_t>())
                    + " is newer than this build reads (" + std::to_string(kCheckpointFormatVersion) + ")", path);
        Shape shape { int(meta[2].item<int64_t>()), int(meta[3].item<int64_t>()), int(meta[4].item<int64_t>()) };
        if (shape.features < 1 || shape.features > 4096 || shape.hidden1 < 1 || shape.hidden1 > 65536 || shape.hidden2 < 1
            || shape.hidden2 > 65536)
            return makeError(ErrorCode::Format, "checkpoint has an impossible network shape", path);
        auto net = create(0, shape);
        torch::NoGradGuard guard;
        for (auto& p : net->m->net->named_parameters()) {
            torch::Tensor t;
            if (!ar.try_read(p.key(), t))
                return makeError(ErrorCode::Format, "checkpoint lacks tensor " + p.key(), path);
            if (t.sizes() != p.value().sizes())
                return makeError(ErrorCode::Format, "checkpoint tensor " + p.key() + " has shape " + c10::str(t.sizes())
                        + ", expected " + c10::str(p.value().sizes()), path);
            if (!torch::isfinite(t).all().item<bool>())
                return makeError(ErrorCode::Format, "checkpoint tensor " + p.key() + " holds NaN or infinite values", path);
            p.value().copy_(t.to(torch::kFloat32));
        }
        torch::Tensor pre;
        if (ar.try_read("preselect", pre)) {
            if (pre.scalar_type() != torch::kInt64 || pre.numel() != 2 || pre[0].item<int64_t>() < 1 || pre[1].item<int64_t>() < 1
                || pre[0].item<int64_t>() > 1'000'000'000 || pre[1].item<int64_t>() > 1'000'000'000)
                return makeError(ErrorCode::Format, "checkpoint has an impossible preselect record", path);
            net->setPreselection({ int(pre[0].item<int64_t>()), int(pre[1].item<int64_t>()) });
        }
        torch::Tensor skip;
        if (ar.try_read("skip", skip)) {
            if (skip.scalar_type() != torch::kInt64 || skip.numel() != 1 || skip[0].item<int64_t>() < 1
                || skip[0].item<int64_t>() > 1'000'000)
                return makeError(ErrorCode::Format, "checkpoint has an impossible skip record", path);
            net->setSkipWaits(int(skip[0].item<int64_t>()));
        }
        return std::unique_ptr<QNetwork>(std::move(net));
    } catch (const std::exception& e) {
        return torchError("corrupted or unreadable checkpoint", path, e);
    }
}

Status TorchQNetwork::exportTorchScript(const std::string& path) const
{
    const std::string tmp = path + ".tmp-" + std::to_string(::getpid());
    try {
        torch::jit::Module mod("SchedlabScorer");
        auto& net = *m->net;
        mod.register_parameter("w1", net.fc1->weight.detach().clone(), false);
        mod.register_parameter("b1", net.fc1->bias.detach().clone(), false);
        mod.register_parameter("w2", net.fc2->weight.detach().clone(), false);
        mod.register_parameter("b2", net.fc2->bias.detach().clone(), false);
        mod.register_parameter("w3", net.fc3->weight.detach().clone(), false);
        mod.register_parameter("b3", net.fc3->bias.detach().clone(), false);
        mod.define(R"JIT(
def forward(self, x):
    h = torch.relu(torch.matmul(x, self.w1.t()) + self.b1)
    h = torch.relu(torch.matmul(h, self.w2.t()) + self.b2)
    return (torch.matmul(h, self.w3.t()) + self.b3).squeeze(1)
)JIT");
        mod.save(tmp);
    } catch (const std::exception& e) {
        std::remove(tmp.c_str());
        return torchError("cannot export TorchScript", path, e);
    }
    return syncAndRename(tmp, path);
}

Status TorchQNetwork::score(const float* rows, int n, int features, std::vector<float>& out)
{
    if (features != m_shape.features)
        return makeError(ErrorCode::Invalid, "model mismatch: the network takes " + std::to_string(m_shape.features)
                + " features, the policy gives " + std::to_string(features));
    out.resize(std::size_t(n));
    if (n == 0)
        return {};
    torch::NoGradGuard guard;
    const torch::Tensor x = torch::from_blob(const_cast<float*>(rows), { n, features }, torch::kFloat32);
    const torch::Tensor q = m->net->forward(x).contiguous();
    std::memcpy(out.data(), q.data_ptr<float>(), sizeof(float) * std::size_t(n));
    return {};
}

std::string TorchQNetwork::describe() const
{
    std::ostringstream s;
    s << "q-network " << m_shape.features << "-" << m_shape.hidden1 << "-" << m_shape.hidden2 << "-1";
    return s.str();
}

std::unique_ptr<QNetwork> TorchQNetwork::cloneNetwork() const
{
    auto copy = create(0, m_shape);
    copy->copyFrom(*this);
    copy->setPreselection(m_preselect);
    copy->setSkipWaits(m_skipWaits);
    return copy;
}

Result<std::unique_ptr<Scorer>> TorchQNetwork::clone() const { return std::unique_ptr<Scorer>(cloneNetwork()); }

void TorchQNetwork::copyFrom(const QNetwork& other)
{
    torch::NoGradGuard guard;
    auto dst = m->net->parameters();
    // Every QNetwork is made by this module (QNetwork::create/load forward here).
    auto src = static_cast<const TorchQNetwork&>(other).m->net->parameters();
    for (std::size_t i = 0; i < dst.size(); ++i)
        dst[i].copy_(src[i]);
}

void TorchQNetwork::mixWith(const QNetwork& other, double t)
{
    torch::NoGradGuard guard;
    auto dst = m->net->parameters();
    auto src = static_cast<const TorchQNetwork&>(other).m->net->parameters();
    for (std::size_t i = 0; i < dst.size(); ++i)
        dst[i].mul_(1.0 - t).add_(src[i], t);
}

bool TorchQNetwork::allFinite() const
{
    for (const auto& p : m->net->parameters())
        if (!torch::isfinite(p).all().item<bool>())
            return false;
    return true;
}

double TorchQNetwork::weightSum() const
{
    double s = 0;
    for (const auto& p : m->net->parameters())
        s += p.sum().item<double>();
    return s;
}

uint64_t TorchQNetwork::weightHash() const
{
    uint64_t h = 1469598103934665603ull;
    for (const auto& p : m->net->parameters()) {
        const torch::Tensor c = p.detach().contiguous();
        const auto* b = static_cast<const unsigned char*>(c.data_ptr());
        for (std::size_t i = 0; i < std::size_t(c.numel()) * sizeof(float); ++i)
            h = (h ^ b[i]) * 1099511628211ull;
    }
    return h;
}

// ---- TorchScript scorers ------------------------------------------------------------------

namespace {
class TorchScriptScorer final : public Scorer {
public:
    TorchScriptScorer(torch::jit::Module m, std::string path)
        : m_module(std::move(m))
        , m_path(std::move(path))
    {
    }
    Status score(const float* rows, int n, int features, std::vector<float>& out) override
    {
        out.resize(std::size_t(n));
        if (n == 0)
            return {};
        try {
            torch::NoGradGuard guard;
            const torch::Tensor x = torch::from_blob(const_cast<float*>(rows), { n, features }, torch::kFloat32);
            torch::Tensor q = m_module.forward({ x }).toTensor();
            if (q.dim() == 2 && q.size(1) == 1)
                q = q.squeeze(1);
            if (q.dim() != 1 || q.size(0) != n)
                return makeError(ErrorCode::Format, "model mismatch: forward returned shape " + c10::str(q.sizes())
                        + " for " + std::to_string(n) + " candidates (expected [" + std::to_string(n) + "])", m_path);
            q = q.to(torch::kFloat32).contiguous();
            std::memcpy(out.data(), q.data_ptr<float>(), sizeof(float) * std::size_t(n));
            for (float v : out)
                if (!std::isfinite(v))
                    return makeError(ErrorCode::Format, "model returned NaN or infinite scores", m_path);
            return {};
        } catch (const std::exception& e) {
            return torchError("TorchScript model failed", m_path, e);
        }
    }
    std::string describe() const override { return "torchscript " + m_path; }
    Result<std::unique_ptr<Scorer>> clone() const override
    {
        return std::unique_ptr<Scorer>(new TorchScriptScorer(m_module.clone(), m_path));
    }

private:
    torch::jit::Module m_module;
    std::string m_path;
};
} // namespace

Result<std::unique_ptr<Scorer>> loadTorchScriptModule(const std::string& path, int features)
{
    configureTorchRuntime();
    if (::access(path.c_str(), R_OK) != 0)
        return makeError(ErrorCode::Io, "TorchScript file cannot be read", path);
    std::unique_ptr<Scorer> s;
    try {
        torch::jit::Module m = torch::jit::load(path);
        m.eval();
        s = std::make_unique<TorchScriptScorer>(std::move(m), path);
    } catch (const std::exception& e) {
        return torchError("not a loadable TorchScript module", path, e);
    }
    // Probe: three candidates of zeros must give three finite scores.
    std::vector<float> probe(std::size_t(3 * features), 0.0f), out;
    if (Status st = s->score(probe.data(), 3, features, out); !st)
        return st.error();
    return s;
}

} // namespace schedlab::rl
