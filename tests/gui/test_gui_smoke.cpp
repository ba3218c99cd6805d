// The workbench starts offscreen on the bundled sample and renders a screenshot of its window.

#include "test_util.h"

#include <QImage>
#include <QProcess>
#include <QRegularExpression>
#include <QtTest>

class TestGuiSmoke : public QObject {
    Q_OBJECT
private slots:
    void screenshotOfTheSample()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath("shot.png");
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("QT_QPA_PLATFORM", "offscreen");
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(SCHEDLAB_GUI), { "--screenshot", out });
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        QImage img(out);
        QVERIFY(!img.isNull());
        // "wrote OUT (window WxH)": the PNG has exactly the window's size
        const QString printed = QString::fromUtf8(p.readAllStandardOutput());
        const QRegularExpressionMatch m = QRegularExpression("window (\\d+)x(\\d+)").match(printed);
        QVERIFY2(m.hasMatch(), qPrintable(printed));
        QCOMPARE(img.size(), QSize(m.captured(1).toInt(), m.captured(2).toInt()));
        QVERIFY(img.width() >= 1280 && img.height() >= 800);
        // not a blank image: the summary text is drawn
        QSet<QRgb> colours;
        for (int y = 0; y < img.height(); y += 7)
            for (int x = 0; x < img.width(); x += 7)
                colours.insert(img.pixel(x, y));
        QVERIFY(colours.size() > 3);
    }

    void badFileShowsBannerNotCrash()
    {
        QTemporaryDir dir;
        const std::string bad = schedlab::test::writeFile(dir, "bad.csv", "hello\n");
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("QT_QPA_PLATFORM", "offscreen");
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(SCHEDLAB_GUI), { "--screenshot", dir.filePath("s.png"), QString::fromStdString(bad) });
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
    }
};

QTEST_GUILESS_MAIN(TestGuiSmoke)
#include "test_gui_smoke.moc"
