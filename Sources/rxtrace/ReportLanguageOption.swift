import ArgumentParser
import Foundation
import RxGraphviz

/// `--lang en|zh`: the language of the report page. Without it, the locale decides (`LC_ALL`,
/// `LC_MESSAGES`, `LANG`: Chinese for `zh…`, English otherwise). Only the page changes; what
/// `rxtrace` itself prints stays English.
struct ReportLanguageOption: ParsableArguments {
    @Option(
        name: .customLong("lang"),
        help: ArgumentHelp(
            "The report page's language: en or zh (default: from LC_ALL, LC_MESSAGES or LANG).",
            valueName: "language"))
    var lang: String?

    /// The language asked for, or a one-line usage error for a value that names none.
    func language(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(CLIError)
        -> ReportLanguage
    {
        guard let lang else { return ReportLanguage.fromLocale(environment) }
        guard let language = ReportLanguage(argument: lang) else {
            let known = ReportLanguage.allCases.map(\.rawValue).joined(separator: " or ")
            throw CLIError.badInput("--lang \(lang): no such language (use \(known))")
        }
        return language
    }
}
