import Foundation
import Testing
import WidgetQuotaCLI
import WidgetQuotaSupport
import WidgetQuotaTestSupport

/// `widget-quota --generate-completion-script SHELL`: scripts made from the command declarations.
@Suite("Completion scripts")
struct CompletionScriptTests {
    static let specs = CLI.commands.map(\.spec)

    /// Runs `bash -c script` with `arguments`; nil when bash is not installed.
    static func bash(_ script: String, _ arguments: [String] = []) throws -> (status: Int32, out: String)? {
        guard FileManager.default.isExecutableFile(atPath: "/bin/bash") else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script, "bash"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test("every shell's script names every command and every option", arguments: CompletionScript.Shell.allCases)
    func namesEverything(shell: CompletionScript.Shell) {
        let script = CompletionScript.script(for: shell)
        for spec in Self.specs {
            #expect(script.contains(spec.name), "\(shell) script lacks \(spec.name)")
            for option in spec.options {
                let written = shell == .fish ? "-l \(option.name)" : "--\(option.name)"
                #expect(script.contains(written), "\(shell) script lacks \(spec.name) --\(option.name)")
            }
        }
    }

    @Test("the bash script parses (bash -n) and completes commands, options and files")
    func bashCompletes() throws {
        let script = CompletionScript.script(for: .bash)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("wq-completion-\(UUID().uuidString).bash")
        try script.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        guard let syntax = try Self.bash("bash -n \"$1\"", [file.path]) else { return }
        #expect(syntax.status == 0, "\(syntax.out)")
        // Completes the words given as if the cursor stood after the last one.
        func complete(_ words: [String]) throws -> [String] {
            let run = try #require(
                try Self.bash(
                    "source \"$1\"; shift; COMP_WORDS=(\"$@\"); COMP_CWORD=$(($# - 1)); _widget_quota; printf '%s\\n' \"${COMPREPLY[@]}\"",
                    [file.path] + words))
            #expect(run.status == 0, "\(run.out)")
            return run.out.split(separator: "\n").map(String.init)
        }
        #expect(try complete(["widget-quota", "sim"]) == ["simulate"])
        #expect(try complete(["widget-quota", "simulate", "--sc"]) == ["--scenario"])
        #expect(try complete(["widget-quota", "help", "li"]) == ["lint"])
        #expect(try complete(["widget-quota", "--generate-completion-script", "f"]) == ["fish"])
        #expect(try complete(["widget-quota", "simulate", "--runs", ""]).isEmpty, "a number is not a file")
        #expect(try complete(["widget-quota", "simulate", "--format", "csv"]) == ["csv", "csv-long"])
        #expect(try complete(["widget-quota", "sweep", "--knob", ""]) == ["ttl", "background", "poll"])
        let files = try complete(["widget-quota", "simulate", "--scenario", file.deletingLastPathComponent().path + "/wq-completion-"])
        #expect(files.contains(file.path), "a file after --scenario")
    }

    @Test("--generate-completion-script prints the script, and an unknown shell is a usage error")
    func command() {
        let run = TestSupport.cli(["--generate-completion-script", "bash"])
        #expect(run.code == .success && run.out == CompletionScript.script(for: .bash))
        let bad = TestSupport.cli(["--generate-completion-script", "tcsh"])
        #expect(bad.code == .usage && bad.err.contains("expects one shell: bash, zsh or fish") && bad.out.isEmpty)
    }
}
