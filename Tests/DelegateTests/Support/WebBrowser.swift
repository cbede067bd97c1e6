import Foundation
import MotetTestSupport

/// Headless Chromium driven by Selenium (Debian's chromium, chromium-driver, python3-selenium),
/// for the page's suites: `run` wraps a Python body in the common part (the driver with a 390×844
/// viewport, `viewport`, `wait`, `el`, `file_state`, `Keys`) and returns what the body put in `seen`.
enum WebBrowser {
    /// Runs `body` (Python, indented by 4 spaces, inside a try whose finally quits the browser)
    /// with `sys.argv[1:]` = `base`, `stateFile`, then `arguments`; the body fills `seen`.
    static func run(_ body: String, base: String, stateFile: String, arguments: [String] = [], timeout: Double = 90)
        throws -> [String: Any]
    {
        let script = prelude + body + """

            finally:
                d.quit()
            print(json.dumps(seen))
            """
        let r = try Shell.run(["/usr/bin/python3", "-c", script, base, stateFile] + arguments, timeout: timeout)
        guard let seen = WebRig.object(r.stdout.split(separator: "\n").last.map(String.init) ?? "") else {
            throw TestError.failed("the browser script failed: \(r.stdout) \(r.stderr)")
        }
        return seen
    }

    static let prelude = """
        import json, os, signal, subprocess, sys, time
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
        from selenium.webdriver.common.by import By
        from selenium.webdriver.common.keys import Keys

        base, state_path = sys.argv[1:3]
        args = sys.argv[3:]
        options = webdriver.ChromeOptions()
        options.binary_location = "/usr/bin/chromium"
        for a in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,800"]:
            options.add_argument(a)
        d = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        seen = {}

        def viewport(w, h, mobile):
            d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": w, "height": h, "deviceScaleFactor": 1, "mobile": mobile})

        # A phone held upright (headless Chromium's window is at least 500 wide: the viewport is set).
        viewport(390, 844, True)

        def wait(condition, timeout=5):
            start = time.monotonic()
            while time.monotonic() - start < timeout:
                if condition(): return time.monotonic() - start
                time.sleep(0.02)
            return None

        def el(i): return d.find_element(By.ID, i)
        def state_text(): return el("state").get_attribute("textContent")
        def file_state():
            try:
                return json.load(open(state_path))
            except Exception:
                return {}
        def file_values(keys, want, timeout=5):
            # The json delegate's values of keys, once they are want (or after timeout): it writes
            # its file on its own, a moment before or after the page changes.
            values = lambda: [file_state().get(k) for k in keys]
            wait(lambda: values() == want, timeout)
            return values()

        try:

        """
}
