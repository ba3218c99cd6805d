// schedlab: the desktop workbench.
//   schedlab [FILE...]                      open the files as one trace (default: the bundled sample)
//   schedlab --screenshot OUT.png [FILE...] render the window offscreen, save it, and exit

#include "main_window.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QTimer>

#include <cstdio>

namespace {
// The bundled sample, looked up next to the source tree the binary was built from, then relative to
// the working directory.
QString bundledSample()
{
    for (const QString& candidate : { QStringLiteral(SCHEDLAB_SOURCE_DIR "/samples/sample.sltrace"),
             QStringLiteral("samples/sample.sltrace") })
        if (QFileInfo::exists(candidate))
            return candidate;
    return {};
}
} // namespace

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName("schedlab");
    QApplication::setOrganizationName("schedlab");

    QCommandLineParser parser;
    parser.setApplicationDescription("schedlab workbench");
    parser.addHelpOption();
    QCommandLineOption screenshot("screenshot", "Render the window to <png> after loading, then exit.", "png");
    parser.addOption(screenshot);
    parser.addPositionalArgument("files", "Trace files to open as one trace (default: the bundled sample).");
    parser.process(app);

    schedlab::app::MainWindow window;
    std::vector<std::string> files;
    for (const QString& f : parser.positionalArguments())
        files.push_back(f.toStdString());
    if (files.empty()) {
        const QString sample = bundledSample();
        if (!sample.isEmpty())
            files.push_back(sample.toStdString());
    }
    if (!files.empty())
        window.openTrace(files);
    window.show();

    if (parser.isSet(screenshot)) {
        const QString out = parser.value(screenshot);
        QTimer::singleShot(0, &window, [&window, out] {
            const bool ok = window.grab().save(out, "PNG");
            std::fprintf(ok ? stdout : stderr, "%s %s\n", ok ? "wrote" : "cannot write", qPrintable(out));
            QApplication::exit(ok ? 0 : 1);
        });
    }
    return app.exec();
}
