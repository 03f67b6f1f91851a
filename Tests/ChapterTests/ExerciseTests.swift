import Foundation
import Testing

/// Every chapter ends with "predict the output" exercises. The question and its code are in the
/// README (both languages), the answer is not: `make chapter N=NN ARGS=--answers` runs the
/// exercises and prints what they really print, and `answersMatchGolden` holds that output to
/// `Golden/chapterNN.answers.txt`. Here the README's code is held to the code the chapter runs,
/// `exercise(N) { … }` at the end of its `main.swift`, line for line: the question a reader sees is
/// the one whose answer is printed, and neither can go stale alone.
@Suite struct ExerciseTests {
    struct Exercise: Equatable {
        var number: Int
        var code: String
    }

    /// `Chapters/06-Transforming` for `06`.
    static func folder(_ number: String) throws -> String {
        let chapters = CitationTests.root.appendingPathComponent("Chapters").path
        let folder = try FileManager.default.contentsOfDirectory(atPath: chapters).first { $0.hasPrefix(number + "-") }
        return "Chapters/\(try #require(folder))"
    }

    /// The exercises of a chapter's source: each `exercise(N) {` at the start of a line, its body
    /// up to the `}` or `} why: {` that closes it at the start of a line, with the body's
    /// indentation removed. (The reason that follows, `} why: { Why(…) }`, is not code the README
    /// shows; `everyAnswerSaysWhy` checks it.)
    static func exercises(inSource source: String) -> [Exercise] {
        var found: [Exercise] = []
        var current: (number: Int, lines: [String])?
        let header = try! NSRegularExpression(pattern: #"^exercise\((\d+)\) \{$"#)
        for line in source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if var open = current {
                if line == "}" || line.hasPrefix("} why: {") {
                    found.append(Exercise(number: open.number, code: open.lines.joined(separator: "\n")))
                    current = nil
                } else {
                    open.lines.append(line.hasPrefix("    ") ? String(line.dropFirst(4)) : line)
                    current = open
                }
            } else if let match = header.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) {
                current = (Int(line[Range(match.range(at: 1), in: line)!])!, [])
            }
        }
        return found
    }

    /// The Swift code blocks of a README's exercises section (`## Exercises`, `## 练习`), in order.
    static func codeBlocks(inExercisesOf readme: String) -> [String] {
        var blocks: [String] = []
        var inSection = false
        var block: [String]?
        for line in readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if block == nil, line.hasPrefix("## ") {
                inSection = line == "## Exercises" || line == "## 练习"
                continue
            }
            guard inSection else { continue }
            if line.hasPrefix("```") {
                if let open = block {
                    blocks.append(open.joined(separator: "\n"))
                    block = nil
                } else if line == "```swift" {
                    block = []
                }
            } else if block != nil {
                block!.append(line)
            }
        }
        return blocks
    }

    @Test(arguments: ChapterTranscriptTests.chapterNumbers)
    func everyChapterEndsWithExercises(_ number: String) throws {
        let folder = try Self.folder(number)
        let exercises = Self.exercises(inSource: try CitationTests.read("\(folder)/main.swift"))
        #expect(
            exercises.count >= 2, "\(folder)/main.swift has \(exercises.count) exercises; a chapter needs two or three")
        #expect(exercises.map(\.number) == Array(1...max(1, exercises.count)), "exercises are numbered 1, 2, …")
        for readme in ["README.md", "README.zh.md"] {
            let page = try CitationTests.read("\(folder)/\(readme)")
            let blocks = Self.codeBlocks(inExercisesOf: page)
            #expect(
                blocks.count == exercises.count,
                "\(folder)/\(readme) shows \(blocks.count) exercises, main.swift runs \(exercises.count)")
            for (exercise, block) in zip(exercises, blocks) where exercise.code != block {
                Issue.record(
                    """
                    \(folder)/\(readme): exercise \(exercise.number)'s code is not what main.swift runs:
                    \(block)
                    ---
                    \(exercise.code)
                    """
                )
            }
            #expect(
                page.contains("`make chapter N=\(number) ARGS=--answers`"),
                "\(folder)/\(readme) does not say how to print the answers")
        }
    }

    /// The sections of an `--answers` transcript: each exercise's number and its lines.
    static func sections(ofAnswers transcript: String) -> [(number: Int, lines: [String])] {
        var sections: [(number: Int, lines: [String])] = []
        let header = try! NSRegularExpression(pattern: #"^--- exercise (\d+) ---$"#)
        for line in transcript.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if let match = header.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) {
                sections.append((Int(line[Range(match.range(at: 1), in: line)!])!, []))
            } else if !sections.isEmpty {
                sections[sections.count - 1].lines.append(line)
            }
        }
        return sections
    }

    /// Under each answer, `--answers` says why: a line starting `why:` (and its continuation
    /// lines, indented under it) after what the exercise printed. A reader who predicted wrong
    /// learns the reason from the output alone.
    @Test(arguments: ChapterTranscriptTests.chapterNumbers)
    func everyAnswerSaysWhy(_ number: String) throws {
        let golden = try CitationTests.read("Tests/ChapterTests/Golden/chapter\(number).answers.txt")
        let sections = Self.sections(ofAnswers: golden)
        let folder = try Self.folder(number)
        let exercises = Self.exercises(inSource: try CitationTests.read("\(folder)/main.swift"))
        #expect(sections.map(\.number) == exercises.map(\.number), "chapter\(number).answers.txt and main.swift")
        for section in sections {
            let reason = section.lines.drop { !$0.hasPrefix("why: ") }
            #expect(!reason.isEmpty, "chapter \(number), exercise \(section.number): no `why:` line under the answer")
            // The reason comes last: its own lines, then the blank line before the next section.
            let rest = reason.dropFirst().filter { !$0.isEmpty }
            #expect(
                rest.allSatisfy { $0.hasPrefix("     ") },
                "chapter \(number), exercise \(section.number): the answer goes on after its `why:`")
            #expect((reason.first?.count ?? 0) > "why: ".count + 20, "chapter \(number), exercise \(section.number)")
        }
    }

    /// `--answers --lang zh` prints the same answers with the reasons in Chinese (`为什么：`), so
    /// that a Chinese reader learns why from the output too.
    @Test(arguments: ChapterTranscriptTests.chapterNumbers)
    func everyAnswerSaysWhyInChinese(_ number: String) throws {
        let executable = ChapterTranscriptTests.productsDirectory.appendingPathComponent("chapter\(number)")
        try #require(FileManager.default.isExecutableFile(atPath: executable.path), "chapter\(number) is not built")
        let run = try ChapterTranscriptTests.run(executable, arguments: ["--answers", "--lang", "zh"])
        #expect(run.status == 0, "chapter\(number) --answers --lang zh ended with \(run.ending): \(run.stderr)")
        let golden = try CitationTests.read("Tests/ChapterTests/Golden/chapter\(number).answers.txt")
        let english = Self.sections(ofAnswers: golden)
        let chinese = Self.sections(ofAnswers: ChapterTranscriptTests.masked(run.out))
        #expect(chinese.map(\.number) == english.map(\.number))
        for (en, zh) in zip(english, chinese) {
            let answer = Array(en.lines.prefix { !$0.hasPrefix("why: ") })
            #expect(
                Array(zh.lines.prefix { !$0.hasPrefix("为什么：") }) == answer,
                "chapter \(number), exercise \(en.number): the answer differs under --lang zh")
            let reason = zh.lines.first { $0.hasPrefix("为什么：") } ?? ""
            #expect(
                reason.unicodeScalars.contains { (0x4E00...0x9FFF).contains($0.value) },
                "chapter \(number), exercise \(en.number): no Chinese reason (为什么：…) under the answer")
        }
    }

    @Test func exercisesAreReadFromTheSourceAndTheReadme() {
        let source = """
            example("x") {
                print(0)
            }

            exercise(1) {
                let s = PublishSubject<Int>()
                s.subscribe(onNext: { print($0) })

                s.onNext(1)
            } why: {
                Why("A subject sends what comes after the subscription.", zh: "……")
            }
            """
        #expect(
            Self.exercises(inSource: source) == [
                Exercise(
                    number: 1, code: "let s = PublishSubject<Int>()\ns.subscribe(onNext: { print($0) })\n\ns.onNext(1)")
            ])
        let readme = """
            ## The code
            ```swift
            not this
            ```
            ## Exercises
            **1.** What does it print?
            ```swift
            print(1)
            ```
            ```
            an output block is not code
            ```
            ## 练习
            ```swift
            print(2)
            ```
            """
        #expect(Self.codeBlocks(inExercisesOf: readme) == ["print(1)", "print(2)"])
    }
}
