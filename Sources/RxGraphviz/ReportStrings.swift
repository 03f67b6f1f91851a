/// Every string the page of `rxtrace report` shows a reader, in one language: the page's static
/// text (filled in where `report.html` says `<!--rxtrace:t.NAME-->`), and what its script writes
/// (`report.js` reads these as `T.NAME`). One value per language, each a memberwise
/// initialiser call, so a language missing a string does not compile; rxtraceTests check that
/// every name the page and its script use is here.
///
/// `{name}` marks what the script puts in (a number, a node's link); everything else is plain
/// text, escaped where it goes into HTML. Type, operator, call and event names (`forwardOn`,
/// `AnonymousObserver`, `next`) are Rx's own and stay as they are in every language.
package struct ReportStrings: Encodable, Sendable {
    /// The language tag for `<html lang>`.
    package let lang: String
    /// How a recording's start (UTC) is written: {y} {mo} {d} {h} {mi} {s}.
    let date: String

    // The graph's labels: its title ({nodes}, {subscriptions}), a subscription's box, an inner one's.
    let graphTitle, graphCluster, graphClusterSite, graphClusterInner, graphInner: String

    // The page around the replay.
    let pageTitle, brand, alertsLabel: String
    let replayLabel, firstTitle, firstLabel, backTitle, backLabel, backText: String
    let playTitle, playLabel, playText, pauseLabel, pauseText: String
    let forwardTitle, forwardLabel, forwardText, lastTitle, lastLabel: String
    let sliderLabel, speed, speedLabel, speedOne, speedOther: String
    let graphLabel, zoomInTitle, zoomInLabel, zoomOutTitle, zoomOutLabel, fitTitle, fitText, hint: String
    let legendCaller, legendCallee, legendUnborn, legendDisposed, legendLeaked: String
    let panelLabel, panelPlaceholder: String
    let marblesLabel, marblesHeading, resourcesLabel, resourcesHeading, eventsHeading: String
    let filterPlaceholder, filterLabel, columnStep, columnSeq, columnNode, columnEvent, columnTime: String
    let noGraph, noGraphReason: String

    // Names, counts and times.
    let userCode, unknownSite, unknown, never, none, seconds, step, seq: String
    /// Between the items of a list in running text (types, call sites, nodes).
    let listSeparator: String
    let nodesOne, nodesOther, subscriptionsOne, subscriptionsOther, rootsOne, rootsOther: String
    let calls, events, virtualTime, droppedCalls, droppedEvents, recorded: String
    let andMore, andMoreRoots: String

    // The header's banners.
    let cutTitle, cutText: String
    let leakTitle, leakTitleAtCut, leakWhat, leakWhatAtCut, leakWith, leakRoot, leakHolds: String
    let noLeaks, anomaliesTitle, anomaly: String
    let causes: Causes

    // The current call.
    let noCalls, beforeFirst, callerMadeAt, calledBy, calledFromUserCode, calleeMadeAt: String
    let noSteps, beforeStepOneOf, stepOf: String

    // Marbles and live objects.
    let marbleTitle, marblesOf, noEventsInSubscription, noSubscription, columnsOf, moreLanes: String
    let noLiveCounts, countedFromNodes, liveChartLabel, nothingCountedYet, live, asOfSeq: String

    // The events table.
    let moreRows, filterMatches: String

    // The node panel.
    let kinds: Kinds
    let beforeStepOne, stateLeaked, stateDisposed, stateTerminated, stateGone, stateAlive, stateAliveObservable: String
    let fieldKind, fieldSite, fieldID, fieldThread, fieldSubscription, fieldBorn, fieldDisposed: String
    let fieldDeinit, fieldTerminated, fieldState, fieldDrawnIn, fieldTypes, fieldNodes, fieldFirstBorn: String
    let fieldAllGone, subscriptionEndingAt, collapsedGroup, relations, anomalies, panelAnomaly, eventsOf: String
    let moreEventsInTable, laneButton, innerSubscriptions, collapsed, groupNote, members: String

    /// `template` with each `{name}` replaced by `values[name]`, as the page's script does it.
    func format(_ template: String, _ values: [String: String]) -> String {
        values.reduce(template) { $0.replacingOccurrences(of: "{\($1.key)}", with: $1.value) }
    }

    /// What a node of each kind is (`TraceNodeKind`).
    struct Kinds: Encodable, Sendable {
        let producer, observable, subject, sink, observer, disposable, scheduled: String
    }

    /// Why a leak's root is still there (`TraceLeakReport.Root.Cause`).
    struct Causes: Encodable, Sendable {
        let subject, container, disposable, dropped, unheld: String
    }
}

/// The language of the page `rxtrace report` writes.
package enum ReportLanguage: String, CaseIterable, Sendable {
    case en, zh

    /// The language `value` names (`en`, `zh`), or nil.
    package init?(argument value: String) {
        self.init(rawValue: value)
    }

    /// The language the locale asks for, read as POSIX resolves the messages' locale: the first
    /// of `LC_ALL`, `LC_MESSAGES` and `LANG` that is set and not empty decides. Chinese when its
    /// language is `zh` (`zh_CN.UTF-8`, `zh_TW`, `zh`), English otherwise (`C`, `POSIX`, none).
    package static func fromLocale(_ environment: [String: String]) -> ReportLanguage {
        let locale = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
        guard let locale else { return .en }
        let language = locale.prefix { $0 != "_" && $0 != "." && $0 != "@" && $0 != "-" }
        return language.lowercased() == "zh" ? .zh : .en
    }

    package var strings: ReportStrings {
        switch self {
        case .en: .english
        case .zh: .chinese
        }
    }
}
