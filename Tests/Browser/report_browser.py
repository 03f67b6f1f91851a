#!/usr/bin/env python3
"""Drives `rxtrace report` pages in Debian's headless Chromium (Selenium, chromedriver).

    report_browser.py check --mojito MOJITO.html --leaky LEAKY.html --cut CUT.html --expect JSON --artifacts DIR
        [--lang zh --english ENGLISH.html]
    report_browser.py measure REPORT.html [--steps N]

`check` is the browser half of rxtraceTests' ReportBrowserTests, which records the traces,
writes the pages and passes what to expect (call sites, node ids, filter counts) as JSON; it
walks the mojito page to its `forwardOn` call, clicks the AnonymousObserver node, filters the
events table, follows a leak link of the leaky page, and fails on any console error or any
request the page makes. Each failure is one line starting `FAIL:` and exit status 1. What the
pages must say comes from their own table of strings (`#ui-strings`, ReportStrings in Swift), so
the same walk checks the page in every language; with `--lang zh` each page must also be
`<html lang="zh">` and show no string of the English table (read from the `--english` page)
that the Chinese table does not also use (a type name, `seq`).

`measure` prints a page's load time and the time of one replay step, from the Performance
API (see README, "The report").
"""

import argparse
import json
import os
import re
import shutil
import statistics
import sys
import time

from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys


class Failure(Exception):
    pass


def expect(condition, message):
    if not condition:
        raise Failure(message)


def browser():
    """Headless Chromium from Debian's packages, with its console log kept."""
    chromedriver = shutil.which("chromedriver")
    expect(chromedriver, "chromedriver is not installed (apt-get install chromium-driver)")
    options = webdriver.ChromeOptions()
    # The real binary: /usr/bin/chromium is a wrapper script.
    for candidate in ("/usr/lib/chromium/chromium", shutil.which("chromium"), shutil.which("chromium-browser")):
        if candidate and os.path.exists(candidate):
            options.binary_location = candidate
            break
    else:
        raise Failure("chromium is not installed (apt-get install chromium)")
    for argument in (
        "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1440,1100",
        "--hide-scrollbars", "--no-first-run", "--no-default-browser-check", "--disable-extensions",
    ):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(executable_path=chromedriver), options=options)


def open_page(driver, path):
    driver.get("file://" + os.path.abspath(path))
    deadline = time.time() + 30
    while time.time() < deadline:
        if driver.execute_script("return !!window.rxtraceReport"):
            return
        time.sleep(0.05)
    raise Failure(f"{path}: the page did not finish loading in 30 s")


def console_problems(driver, page):
    """Console errors (and uncaught exceptions) since the last call; warnings are printed only."""
    problems = []
    for entry in driver.get_log("browser"):
        if entry.get("level") == "SEVERE":
            problems.append(f"{page}: console error: {entry.get('message')}")
        else:
            print(f"  {page}: console {entry.get('level')}: {entry.get('message')}")
    return problems


def requests_made(driver):
    """Everything the page fetched after the document itself: must be nothing."""
    return driver.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")


def node_elements(driver, css):
    return driver.find_elements(By.CSS_SELECTOR, "#graph g.node" + css)


def shape_style(driver, element):
    """The fill the node shows, and the outline Graphviz drew (highlights may paint over it)."""
    return driver.execute_script(
        "const s = arguments[0].querySelector(':scope > polygon, :scope > ellipse, :scope > path');"
        "return [getComputedStyle(s).fill, s.getAttribute('stroke')];",
        element,
    )


def press(driver, key):
    driver.find_element(By.TAG_NAME, "body").send_keys(key)


def strings(driver):
    """The page's table of strings (`T` in report.js)."""
    return driver.execute_script("return JSON.parse(document.getElementById('ui-strings').textContent)")


def fmt(template, **values):
    return re.sub(r"\{(\w+)\}", lambda m: str(values[m.group(1)]) if m.group(1) in values else m.group(0), template)


def count(n, one, other):
    return fmt(one if n == 1 else other, n=n)


def visible_text(driver):
    """What a reader sees or hears: the text, the tooltips, placeholders and labels, the title."""
    return driver.execute_script(
        "const texts = [document.title, document.body.innerText];"
        "for (const e of document.querySelectorAll('[title], [placeholder], [aria-label]'))"
        "  for (const name of ['title', 'placeholder', 'aria-label'])"
        "    if (e.hasAttribute(name)) texts.push(e.getAttribute(name));"
        "return texts.join('\\n');"
    )


def flatten(table):
    for value in table.values():
        if isinstance(value, dict):
            yield from flatten(value)
        else:
            yield value


def check_language(driver, page, lang, english):
    """`<html lang>`, and for a page not in English, no English string of the page left visible."""
    actual = driver.execute_script("return document.documentElement.lang")
    expect(actual == lang, f"{page}: <html lang={actual!r}>, not {lang!r}")
    if english is None:
        return 0
    own = list(flatten(strings(driver)))
    fragments = set()
    for value in flatten(english):
        for fragment in re.split(r"\{\w+\}", value):
            fragment = fragment.strip(" ·—:;,.()[]|")
            if re.search(r"[A-Za-z]{3}", fragment) and not any(fragment in mine for mine in own):
                fragments.add(fragment)
    text = visible_text(driver)
    # Whole words only, and not inside a name the trace itself recorded (`thread-2`, `main.swift`).
    left = sorted(f for f in fragments if re.search(rf"(?<![\w.-]){re.escape(f)}(?![\w.-])", text))
    expect(not left, f"{page}: English left on the {lang} page: {left}")
    return len(fragments)


def call_name(driver):
    names = driver.find_elements(By.CSS_SELECTOR, "#call .call-name")
    return names[0].text if names else ""


def visible_event_rows(driver):
    return driver.find_elements(By.CSS_SELECTOR, "#events tbody tr:not(.more)")


def check_mojito(driver, path, expected, artifacts, lang, english):
    open_page(driver, path)
    T = strings(driver)
    checked = check_language(driver, "mojito", lang, english)
    expect(requests_made(driver) == [], f"mojito: the page made requests: {requests_made(driver)}")
    leaks = driver.find_element(By.ID, "leaks")
    expect("fine" in leaks.get_attribute("class"), f"mojito: a leak is listed: {leaks.text}")
    sink, observer = expected["sink"], expected["observer"]

    # Before the first call the sink is not born yet: faded.
    press(driver, Keys.HOME)
    expect(driver.execute_script("return rxtraceReport.position") == 0, "mojito: Home did not go before the first call")
    sink_node = driver.find_element(By.ID, f"n{sink['id']}")
    expect("rx-unborn" in sink_node.get_attribute("class"), "mojito: the sink is not faded before it is born")

    # Step forward with → until the call shown is forwardOn.
    for _ in range(60):
        press(driver, Keys.ARROW_RIGHT)
        if call_name(driver) == "forwardOn":
            break
    expect(call_name(driver) == "forwardOn", "mojito: stepping forward never showed a forwardOn call")
    position = driver.execute_script("return rxtraceReport.position")
    text = driver.find_element(By.ID, "call").text
    wanted = re.compile(
        rf"^{position} forwardOn {sink['type']} #{sink['id']} → {observer['type']} #{observer['id']} next\(mojito\)"
    )
    expect(wanted.match(text), f"mojito: the call reads {text!r}, not as the flow view prints it")
    expect(sink["site"] in text, f"mojito: the call does not show its caller's call site {sink['site']}: {text!r}")
    active = node_elements(driver, ".rx-active")
    expect(
        [element.get_attribute("id") for element in active] == [f"n{sink['id']}"],
        f"mojito: highlighted {[e.get_attribute('id') for e in active]}, not the sink n{sink['id']}",
    )
    expect(sink["type"] in active[0].text, f"mojito: the highlighted node reads {active[0].text!r}")
    targets = node_elements(driver, ".rx-target")
    expect([e.get_attribute("id") for e in targets] == [f"n{observer['id']}"], "mojito: the callee is not marked")
    edges = driver.find_elements(By.CSS_SELECTOR, "#graph g.edge.rx-active")
    expect(
        [e.get_attribute("id") for e in edges] == [f"n{sink['id']}-forward-n{observer['id']}"],
        f"mojito: highlighted edges {[e.get_attribute('id') for e in edges]}",
    )
    # Disposed by the end, so grey in the picture, but alive at this step: drawn live.
    fill, _ = shape_style(driver, sink_node)
    expect(fill == "rgb(255, 255, 255)", f"mojito: the live sink is filled {fill} at forwardOn")
    unborn = [e.get_attribute("id") for e in node_elements(driver, ".rx-unborn")]
    expect(f"n{expected['laterNode']}" in unborn, f"mojito: node {expected['laterNode']} is not faded yet: {unborn}")

    # Click the AnonymousObserver node: its panel shows its call site.
    observer_node = driver.find_element(By.ID, f"n{observer['id']}")
    ActionChains(driver).move_to_element(observer_node).click().perform()
    title = driver.find_element(By.CSS_SELECTOR, "#panel h2").text
    expect(title == f"{observer['type']} #{observer['id']}", f"mojito: clicking the observer opened {title!r}")
    site = driver.find_element(By.ID, "panel-site").text
    expect(site.startswith(observer["site"]), f"mojito: the panel's call site reads {site!r}, not {observer['site']}")
    expect("rx-selected" in observer_node.get_attribute("class"), "mojito: the clicked node is not marked selected")
    driver.find_element(By.ID, "show-lane").click()
    lane = driver.find_element(By.ID, "panel-lane").text
    expect("mojito" in lane, f"mojito: the observer's marble lane reads {lane!r}")
    marbles = driver.find_element(By.ID, "marbles").text
    expect("mojito" in marbles, f"mojito: the marbles of the subscription read {marbles!r}")
    check_language(driver, "mojito at forwardOn", lang, english)
    driver.save_screenshot(os.path.join(artifacts, f"report-mojito-forwardOn{suffix(lang)}.png"))

    # At the end the sink is grey again.
    press(driver, Keys.END)
    fill, _ = shape_style(driver, sink_node)
    expect(fill == "rgb(230, 230, 230)", f"mojito: the disposed sink is filled {fill} after the last call")

    # Filter the events table.
    box = driver.find_element(By.ID, "event-filter")

    def type_filter(text):
        box.send_keys(Keys.CONTROL, "a")
        box.send_keys(Keys.BACKSPACE)
        if text:
            box.send_keys(text)

    for text, count in expected["filters"]:
        type_filter(text)
        rows = visible_event_rows(driver)
        expect(len(rows) == count, f"mojito: filtering the events by {text!r} shows {len(rows)} rows, not {count}")
        for row in rows:
            expect(
                all(token.lower() in row.text.lower() or token.startswith("#") for token in text.split()),
                f"mojito: row {row.text!r} does not match {text!r}",
            )
    type_filter("")
    expect(len(visible_event_rows(driver)) == expected["events"], "mojito: clearing the filter lost rows")
    check_language(driver, "mojito filtered", lang, english)
    print(f"ok: mojito: call {position} forwardOn highlights the sink, the observer's panel shows "
          f"{observer['site']}, filters {[(t, c) for t, c in expected['filters']]}, <html lang={lang!r}>"
          + (f", none of {checked} English strings left" if english else ""))


def check_leaky(driver, path, expected, artifacts, lang, english):
    open_page(driver, path)
    T = strings(driver)
    expect(requests_made(driver) == [], f"leaky: the page made requests: {requests_made(driver)}")
    leaks = driver.find_element(By.ID, "leaks")
    expect("leak" in leaks.get_attribute("class").split(), f"leaky: no leak is listed: {leaks.text}")
    for site in expected["sites"]:
        expect(site in leaks.text, f"leaky: the leak at {site} is not listed: {leaks.text}")
    links = leaks.find_elements(By.CSS_SELECTOR, "a.leak-link")
    ids = [int(link.get_attribute("data-node")) for link in links]
    expect(sorted(ids) == sorted(expected["leaked"]), f"leaky: leak links name {ids}, not {expected['leaked']}")
    for link in links:
        link.click()
        node_id = link.get_attribute("data-node")
        selected = node_elements(driver, ".rx-selected")
        expect(selected, f"leaky: following the link to #{node_id} selected no drawn node")
        fill, stroke = shape_style(driver, selected[0])
        expect(
            (fill, stroke) == ("rgb(255, 214, 214)", "#d62728"),
            f"leaky: the link to #{node_id} leads to {selected[0].get_attribute('id')}, filled {fill} / {stroke}, not red",
        )
        panel = driver.find_element(By.ID, "panel").text
        expect(
            f"#{node_id}" in panel and T["stateLeaked"] in panel,
            f"leaky: the panel of #{node_id} does not say {T['stateLeaked']!r}",
        )
    check_language(driver, "leaky", lang, english)
    driver.save_screenshot(os.path.join(artifacts, f"report-leak{suffix(lang)}.png"))
    print(f"ok: leaky: {len(links)} leak links at {expected['sites']}, each to a red node")


def check_cut(driver, path, expected, artifacts, lang, english):
    open_page(driver, path)
    T = strings(driver)
    cut = driver.find_element(By.ID, "cut")
    banner = fmt(T["cutTitle"], seq=expected["cut"])
    expect(cut.text.startswith(banner), f"cut: the banner says {cut.text!r}, not {banner!r}…")
    leaks = driver.find_element(By.ID, "leaks")
    title = fmt(
        T["leakTitleAtCut"], nodes=count(expected["open"], T["nodesOne"], T["nodesOther"]),
        roots=count(expected["roots"], T["rootsOne"], T["rootsOther"]))
    expect(leaks.text.startswith(title), f"cut: the leak banner says {leaks.text!r}, not {title!r}…")
    check_language(driver, "cut", lang, english)
    driver.save_screenshot(os.path.join(artifacts, f"report-cut{suffix(lang)}.png"))
    print(f"ok: cut: the page says it was cut short at {expected['cut']}, {expected['open']} nodes open at the cut")


def suffix(lang):
    return "" if lang == "en" else "." + lang


def check(arguments):
    expected = json.loads(arguments.expect)
    os.makedirs(arguments.artifacts, exist_ok=True)
    driver = browser()
    problems = []
    try:
        english = None
        if arguments.english:
            open_page(driver, arguments.english)
            english = strings(driver)
            expect(english.get("lang") == "en", f"{arguments.english} is not an English page")
        for page, path, run in (
            ("mojito", arguments.mojito, check_mojito),
            ("leaky", arguments.leaky, check_leaky),
            ("cut", arguments.cut, check_cut),
        ):
            try:
                run(driver, path, expected[page], arguments.artifacts, arguments.lang, english)
            except Failure as failure:
                problems.append(str(failure))
                driver.save_screenshot(
                    os.path.join(arguments.artifacts, f"report-{page}-failure{suffix(arguments.lang)}.png"))
            problems += console_problems(driver, page)
    finally:
        driver.quit()
    for problem in problems:
        print("FAIL: " + problem)
    return 1 if problems else 0


def measure(arguments):
    """Load time and time per step of one page, from the Performance API."""
    driver = browser()
    try:
        loads = []
        for _ in range(arguments.loads):
            open_page(driver, arguments.page)
            # Wait for the load event, so loadEventEnd is set.
            driver.execute_async_script(
                "const done = arguments[0];"
                "const check = () => performance.getEntriesByType('navigation')[0].loadEventEnd > 0"
                " ? done() : setTimeout(check, 10); check();")
            loads.append(driver.execute_script(
                "const n = performance.getEntriesByType('navigation')[0];"
                "const m = (name) => performance.getEntriesByName(name)[0];"
                "const paint = performance.getEntriesByName('first-contentful-paint')[0];"
                "return {load: n.loadEventEnd, ready: m('rxtrace-ready').startTime,"
                " parse: m('rxtrace-parsed').startTime - m('rxtrace-start').startTime,"
                " script: m('rxtrace-load').duration, paint: paint ? paint.startTime : 0};"))
        steps = driver.execute_script("return rxtraceReport.steps")
        count = min(arguments.steps, steps)
        # Each step as the page does it for → (its script, then the style and layout it causes),
        # then a frame, so each step starts from a painted page.
        timings = driver.execute_async_script(
            """
            const [count, done] = [arguments[0], arguments[arguments.length - 1]];
            const times = [];
            rxtraceReport.go(0);
            let k = 0;
            const next = () => {
              if (k === count) { done(times); return; }
              const start = performance.now();
              rxtraceReport.go(k + 1);
              document.body.getBoundingClientRect();
              void document.body.offsetHeight;
              times.push(performance.now() - start);
              k += 1;
              requestAnimationFrame(() => setTimeout(next, 0));
            };
            next();
            """,
            count,
        )
        jump = driver.execute_script(
            "const t = performance.now(); rxtraceReport.go(Math.floor(rxtraceReport.steps / 2));"
            "void document.body.offsetHeight; return performance.now() - t;")
        problems = console_problems(driver, "measure")
    finally:
        driver.quit()
    size = os.path.getsize(arguments.page)
    print(f"page: {arguments.page} ({size / 1e6:.1f} MB), {steps} calls")
    best = min(loads, key=lambda entry: entry["load"])
    print(f"load (best of {len(loads)}): load event at {best['load']:.0f} ms (first paint {best['paint']:.0f} ms; "
          f"the page's script ready at {best['ready']:.0f} ms, of which JSON.parse {best['parse']:.0f} ms and "
          f"setting up {best['script']:.0f} ms); all runs: {', '.join(str(round(entry['load'])) for entry in loads)} ms")
    timings.sort()
    print(f"step (→), {len(timings)} steps: median {statistics.median(timings):.2f} ms, "
          f"p95 {timings[int(len(timings) * 0.95) - 1]:.2f} ms, max {timings[-1]:.2f} ms")
    print(f"jump to the middle with the slider: {jump:.1f} ms")
    for problem in problems:
        print("FAIL: " + problem)
    return 1 if problems else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    checking = commands.add_parser("check")
    checking.add_argument("--mojito", required=True)
    checking.add_argument("--leaky", required=True)
    checking.add_argument("--cut", required=True)
    checking.add_argument("--expect", required=True, help="what the pages should show (JSON)")
    checking.add_argument("--artifacts", required=True, help="where the screenshots go")
    checking.add_argument("--lang", default="en", help="the pages' language (their <html lang>)")
    checking.add_argument("--english", help="an English page, whose strings must not show on the others")
    measuring = commands.add_parser("measure")
    measuring.add_argument("page")
    measuring.add_argument("--steps", type=int, default=300)
    measuring.add_argument("--loads", type=int, default=5)
    arguments = parser.parse_args()
    try:
        return check(arguments) if arguments.command == "check" else measure(arguments)
    except (Failure, WebDriverException) as error:
        print(f"FAIL: {str(error).strip().splitlines()[0]}")
        return 1


if __name__ == "__main__":
    sys.exit(main())
