import com.adobe.epubcheck.api.EpubCheck;
import com.adobe.epubcheck.util.WriterReportImpl;
import java.io.File;
import java.io.PrintWriter;

/**
 * Test support: validates several EPUBs in one JVM with Debian's epubcheck
 * (JVM start-up is most of a single epubcheck run). Run as a source file:
 * java -cp /usr/share/java/epubcheck.jar EpubcheckBatch.java a.epub b.epub
 * Prints "=== counts <file> <fatals> <errors> <warnings>" per file.
 */
public class EpubcheckBatch {
  public static void main(String[] args) {
    PrintWriter out = new PrintWriter(System.out, true);
    for (String f : args) {
      out.println("=== " + f);
      WriterReportImpl report = new WriterReportImpl(out, f, true);
      new EpubCheck(new File(f), report).validate();
      out.println("=== counts " + f + " " + report.getFatalErrorCount() + " " + report.getErrorCount() + " " + report.getWarningCount());
    }
    out.flush();
    System.exit(0);
  }
}
