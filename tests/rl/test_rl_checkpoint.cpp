// What opening a `.slq` someone sent trusts: the checker (rl/checkpoint_check.h) that QNetwork::load
// runs before libtorch sees the file. Real checkpoints (written by the CLI before the checker
// existed, and fresh ones) pass and load; hand-made corruptions of one are refused with an error
// naming the file and the fault: a flipped byte (CRC), a NaN or inf weight with its CRC fixed, a
// truncation at every length, a shape that disagrees with meta, a record past the bounds, and an
// archive that carries code (which libtorch would compile and, for __setstate__, run on load).

#include "test_util.h"

#include "rl/checkpoint_check.h"
#include "rl/checkpoint_pickle.h"
#include "rl/checkpoint_zip.h"
#include "rl/q_network.h"

#pragma push_macro("slots")
#undef slots
#include <torch/script.h>
#pragma pop_macro("slots")

#include <QtTest>

#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <zlib.h>

using namespace schedlab;

namespace {

const std::string kSeeds = std::string(SCHEDLAB_TEST_DATA) + "/../fuzz/seeds/checkpoint/";

std::string readBytes(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), {});
}

void writeBytes(const std::string& path, const std::string& bytes)
{
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

// The entry (by the end of its name, e.g. "/data.pkl") of a well-formed archive.
rl::ZipEntry entry(const std::string& bytes, const std::string& suffix)
{
    auto entries = rl::readZipDirectory(bytes);
    if (!entries)
        qFatal("%s", entries.error().message.c_str());
    for (const rl::ZipEntry& e : *entries)
        if (e.name.size() >= suffix.size() && e.name.compare(e.name.size() - suffix.size(), suffix.size(), suffix) == 0)
            return e;
    qFatal("no entry %s", suffix.c_str());
}

// The storage entry of tensor `name`, found through data.pkl as the checker finds it.
rl::ZipEntry tensorEntry(const std::string& bytes, const std::string& name)
{
    const rl::ZipEntry pkl = entry(bytes, "/data.pkl");
    auto tensors = rl::readTensorPickle(std::string_view(bytes).substr(pkl.dataOffset, pkl.size));
    if (!tensors)
        qFatal("%s", tensors.error().message.c_str());
    for (const rl::PickledTensor& t : *tensors)
        if (t.name == name)
            return entry(bytes, "/data/" + t.storageKey);
    qFatal("no tensor %s", name.c_str());
}

// Sets the CRC-32 in the central directory to the entry's data: a corruption made on purpose.
void fixCrc(std::string& bytes, const rl::ZipEntry& e)
{
    const uint32_t crc = uint32_t(::crc32_z(0, reinterpret_cast<const Bytef*>(bytes.data() + e.dataOffset), e.size));
    for (std::size_t p = 0; (p = bytes.find("PK\x01\x02", p)) != std::string::npos; ++p) {
        uint16_t nameLen;
        std::memcpy(&nameLen, bytes.data() + p + 28, 2);
        if (bytes.compare(p + 46, nameLen, e.name) == 0 && nameLen == e.name.size())
            std::memcpy(bytes.data() + p + 16, &crc, 4);
    }
}

template <class T>
void put(std::string& bytes, const rl::ZipEntry& e, std::size_t index, T value)
{
    std::memcpy(bytes.data() + e.dataOffset + index * sizeof(T), &value, sizeof(T));
    fixCrc(bytes, e);
}

} // namespace

class TestRlCheckpoint : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    std::string path(const char* name) const { return m_dir.filePath(name).toStdString(); }

    // A real checkpoint, as training writes it (preselection and skip recorded).
    std::string realCheckpoint()
    {
        auto net = rl::QNetwork::create(7);
        if (!net)
            qFatal("%s", net.error().toString().c_str());
        net.value()->setPreselection({ 500, 50 });
        net.value()->setSkipWaits(16);
        if (Status st = net.value()->save(path("real.slq")); !st)
            qFatal("%s", st.error().toString().c_str());
        return readBytes(path("real.slq"));
    }

    // Writes `bytes`, then expects the checker and QNetwork::load to refuse it with `message`.
    void expectRefused(const char* name, const std::string& bytes, const std::string& message)
    {
        writeBytes(path(name), bytes);
        const Status st = rl::checkCheckpointFile(path(name));
        QVERIFY2(!st.ok(), name);
        QVERIFY2(st.error().message.find(message) != std::string::npos, st.error().toString().c_str());
        QCOMPARE(st.error().file, path(name));
        auto loaded = rl::QNetwork::load(path(name));
        QVERIFY2(!loaded.ok(), name);
        QVERIFY2(loaded.error().message.find(message) != std::string::npos, loaded.error().toString().c_str());
        QCOMPARE(loaded.error().file, path(name));
    }

private slots:
    void checkpointsWrittenBeforeTheCheckerLoad_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("timed (preselect)") << "timed.slq";
        QTest::newRow("skip action") << "skip-action.slq";
        QTest::newRow("teacher round") << "teacher.slq";
        QTest::newRow("autoscale scaler") << "autoscale-scaler.slq";
    }
    void checkpointsWrittenBeforeTheCheckerLoad()
    {
        QFETCH(QString, file);
        const std::string p = kSeeds + file.toStdString();
        const Status st = rl::checkCheckpointFile(p);
        QVERIFY2(st.ok(), st.ok() ? "" : st.error().toString().c_str());
        auto net = rl::QNetwork::load(p);
        QVERIFY2(net.ok(), net.ok() ? "" : net.error().toString().c_str());
    }

    void freshCheckpointsPass()
    {
        const std::string real = realCheckpoint();
        QVERIFY(rl::checkCheckpoint(real, "real.slq").ok());
        auto plain = rl::QNetwork::create(3, { 16, 8, 4 }); // no preselect, no skip, another shape
        QVERIFY(plain.ok());
        QVERIFY(plain.value()->save(path("plain.slq")).ok());
        const Status st = rl::checkCheckpointFile(path("plain.slq"));
        QVERIFY2(st.ok(), st.ok() ? "" : st.error().toString().c_str());
        QVERIFY(rl::QNetwork::load(path("plain.slq")).ok());
    }

    // Before: libtorch read the flipped weight and the network loaded with it.
    void flippedTensorByteIsACrcError()
    {
        std::string bytes = realCheckpoint();
        const rl::ZipEntry w2 = tensorEntry(bytes, "fc2.weight");
        bytes[w2.dataOffset + 100] ^= 0x20;
        expectRefused("flipped.slq", bytes, "corrupted checkpoint: entry " + w2.name + ": CRC mismatch");
    }

    // Before: "checkpoint tensor fc2.weight holds NaN or infinite values" (no index, no layer).
    void nanWeightNamesLayerAndIndex()
    {
        std::string bytes = realCheckpoint();
        put(bytes, tensorEntry(bytes, "fc2.weight"), 17, std::numeric_limits<float>::quiet_NaN());
        expectRefused("nan.slq", bytes, "checkpoint tensor fc2.weight holds NaN at index 17 (layer 2 weight)");
        bytes = realCheckpoint();
        put(bytes, tensorEntry(bytes, "fc3.bias"), 0, std::numeric_limits<float>::infinity());
        expectRefused("inf.slq", bytes, "checkpoint tensor fc3.bias holds an infinite value at index 0 (layer 3 bias)");
    }

    // Before: libtorch's "PytorchStreamReader failed reading zip archive: failed finding central
    // directory" for the half; every length is refused here, none crashes.
    void truncatedAtEveryLength()
    {
        const std::string bytes = realCheckpoint();
        for (std::size_t n = 0; n < bytes.size(); ++n) {
            const Status st = rl::checkCheckpoint(std::string_view(bytes).substr(0, n), "cut.slq");
            QVERIFY2(!st.ok(), std::to_string(n).c_str());
            QVERIFY2(st.error().message.rfind("corrupted checkpoint", 0) == 0
                    || st.error().message.rfind("not a schedlab checkpoint", 0) == 0,
                st.error().message.c_str());
        }
        expectRefused("half.slq", bytes.substr(0, bytes.size() / 2), "corrupted checkpoint: no end of central directory");
    }

    // Before: the loader built a network of meta's shape first (for [4096, 65536, 65536], 4.6
    // billion weights, 17 GiB) and compared shapes after; now storage sizes are compared first.
    void shapeDisagreeingWithMeta()
    {
        std::string bytes = realCheckpoint();
        const rl::ZipEntry meta = tensorEntry(bytes, "meta");
        put(bytes, meta, 4, int64_t(16));
        expectRefused("shape.slq", bytes, "checkpoint tensor fc2.bias has shape [32], expected [16]");
        put(bytes, meta, 2, int64_t(4096));
        put(bytes, meta, 3, int64_t(65536));
        put(bytes, meta, 4, int64_t(65536));
        expectRefused("huge.slq", bytes, "checkpoint tensor fc1.bias has shape [64], expected [65536]");
        put(bytes, meta, 1, int64_t(2));
        expectRefused("newer.slq", bytes, "checkpoint format 2 is newer than this build reads (1)");
        put(bytes, meta, 0, int64_t(0x1234));
        expectRefused("magic.slq", bytes, "not a schedlab checkpoint: no meta record");
        bytes = realCheckpoint();
        put(bytes, tensorEntry(bytes, "skip"), 0, int64_t(-3));
        expectRefused("skip.slq", bytes, "impossible skip record");
    }

    // A file that is not a zip; an entry whose directory record points at another entry's data.
    void structureErrors()
    {
        expectRefused("text.slq", "hello", "not a schedlab checkpoint: not a zip archive");
        std::string bytes = realCheckpoint();
        const rl::ZipEntry w1 = tensorEntry(bytes, "fc1.weight");
        const rl::ZipEntry b1 = tensorEntry(bytes, "fc1.bias");
        // Point fc1.bias's central header at fc1.weight's local header.
        for (std::size_t p = 0; (p = bytes.find("PK\x01\x02", p)) != std::string::npos; ++p)
            if (bytes.compare(p + 46, b1.name.size(), b1.name) == 0) {
                const uint32_t off = uint32_t(w1.localOffset);
                std::memcpy(bytes.data() + p + 42, &off, 4);
            }
        expectRefused("aliased.slq", bytes, "corrupted checkpoint: entry " + b1.name + ": local header disagrees");
    }

    // Found by fuzzing the checker and loading what passed with libtorch: data.pkl naming a
    // tensor the module's code does not declare. Before: libtorch's "Argument passed to at() was
    // not in the map." (tests/fuzz/regressions/checkpoint-undeclared-attribute.slq).
    void tensorsMustBeDeclared()
    {
        const std::string regression = std::string(SCHEDLAB_TEST_DATA) + "/../fuzz/regressions/checkpoint-undeclared-attribute.slq";
        std::string bytes = readBytes(regression);
        expectRefused("undeclared.slq", bytes, "data.pkl holds tensor preselekt, which code/__torch__.py does not declare");
        const rl::ZipEntry pkl = entry(bytes, "/data.pkl");
        const std::size_t at = bytes.find("preselekt", pkl.dataOffset);
        bytes.replace(at, 9, "pr,select");
        fixCrc(bytes, pkl);
        expectRefused("comma.slq", bytes, "data.pkl holds a tensor whose name or storage key is not a plain identifier");
    }

    // An archive with the checkpoint's tensors and a method. Before: libtorch compiled the method
    // and the network loaded; with __setstate__, the method ran while the file was opened.
    void archiveCarryingCodeIsRefused()
    {
        torch::jit::Module m("Module");
        const std::vector<std::pair<std::string, std::vector<int64_t>>> shapes { { "fc1.weight", { 64, 16 } },
            { "fc1.bias", { 64 } }, { "fc2.weight", { 32, 64 } }, { "fc2.bias", { 32 } }, { "fc3.weight", { 1, 32 } },
            { "fc3.bias", { 1 } } };
        for (const auto& [name, shape] : shapes)
            m.register_parameter(name, torch::zeros(shape), false);
        m.register_parameter("meta", torch::tensor({ rl::kCheckpointMagic, int64_t(1), int64_t(16), int64_t(64), int64_t(32) }),
            false);
        m.define("def forward(self, x):\n    return x\n");
        m.save(path("code.slq"));
        expectRefused("code.slq", readBytes(path("code.slq")), "code/__torch__.py line");

        torch::jit::Module s("Module");
        s.register_parameter("meta", torch::zeros({ 5 }, torch::kInt64), false);
        s.define("def __getstate__(self):\n    return 1\n"
                 "def __setstate__(self, state: int):\n    assert state == 2, \"ran while loading\"\n");
        s.save(path("setstate.slq"));
        expectRefused("setstate.slq", readBytes(path("setstate.slq")), "is not a tensor declaration");
    }
};

QTEST_GUILESS_MAIN(TestRlCheckpoint)
#include "test_rl_checkpoint.moc"
