#include "test_util.h"

#include <zlib.h>

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <cstdio>
#include <fstream>
#include <sstream>

namespace schedlab::test {

std::string writeFile(const QTemporaryDir& dir, const std::string& name, const std::string& content)
{
    const std::string path = dir.filePath(QString::fromStdString(name)).toStdString();
    std::ofstream out(path, std::ios::binary);
    out << content;
    return path;
}

std::string writeGzip(const QTemporaryDir& dir, const std::string& name, const std::string& content, long truncateTo)
{
    const std::string path = dir.filePath(QString::fromStdString(name)).toStdString();
    gzFile f = gzopen(path.c_str(), "wb");
    gzwrite(f, content.data(), unsigned(content.size()));
    gzclose(f);
    if (truncateTo > 0) {
        std::string bytes = readFile(path);
        bytes.resize(std::size_t(truncateTo));
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out << bytes;
    }
    return path;
}

std::string readFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::string dataPath(const std::string& relative) { return std::string(SCHEDLAB_TEST_DATA) + "/" + relative; }

std::string realTrace(const std::string& relative)
{
    const QString root = QStringLiteral(SCHEDLAB_SHARED_TRACES);
    if (!QFileInfo(root + "/SOURCES.md").exists())
        return {};
    return (root + "/" + QString::fromStdString(relative)).toStdString();
}

std::string compareGolden(const std::string& goldenRelative, const std::string& actual)
{
    const std::string path = dataPath(goldenRelative);
    if (qEnvironmentVariableIntValue("SCHEDLAB_UPDATE_GOLDEN") == 1) {
        std::ofstream(path, std::ios::binary) << actual;
        return {};
    }
    const std::string expected = readFile(path);
    if (expected == actual)
        return {};
    std::ofstream(path + ".actual", std::ios::binary) << actual;
    // First differing line, for the failure message.
    std::istringstream a(actual), e(expected);
    std::string la, le;
    int line = 0;
    while (true) {
        ++line;
        bool ga = bool(std::getline(a, la)), ge = bool(std::getline(e, le));
        if (!ga && !ge)
            break;
        if (la != le || ga != ge)
            return "golden mismatch at line " + std::to_string(line) + ":\n  expected: " + (ge ? le : "<eof>")
                + "\n  actual:   " + (ga ? la : "<eof>") + "\n  (wrote " + path + ".actual; diff -u " + path + " "
                + path + ".actual)";
    }
    return "golden mismatch (" + path + ".actual written)";
}

QByteArray projectDigest(const std::string& project)
{
    QByteArray all;
    for (const std::string& f : { project, project + "-wal" }) {
        QFile in(QString::fromStdString(f));
        if (in.open(QIODevice::ReadOnly))
            all += QCryptographicHash::hash(in.readAll(), QCryptographicHash::Sha256);
    }
    return all;
}

} // namespace schedlab::test
