import Foundation
import WidgetQuotaKit
import WidgetQuotaTools

// Two builds of one program:
// - with `-Xswiftc -sanitize=fuzzer -Xswiftc -DFUZZING`, a libFuzzer target; the parser is chosen
//   by the environment variable WIDGET_QUOTA_FUZZ_TARGET (see docs/robustness.md);
// - otherwise a replayer: `widget-quota-fuzz TARGET FILE...` runs saved inputs through a target,
//   to reproduce a crash outside the fuzzer.

#if FUZZING
    private let target: FuzzTarget = {
        let name = ProcessInfo.processInfo.environment["WIDGET_QUOTA_FUZZ_TARGET"] ?? "logs"
        guard let target = FuzzTarget(rawValue: name) else {
            FileHandle.standardError.write(
                Data("unknown WIDGET_QUOTA_FUZZ_TARGET \(name); one of \(FuzzTarget.allCases.map(\.rawValue))\n".utf8))
            exit(64)
        }
        return target
    }()

    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
        let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
        target.run(bytes)
        return 0
    }

    /// Leaks LeakSanitizer should not report: the toolchain's Foundation on Linux keeps the UTF-16
    /// copy of every regular expression longer than 256 characters (`NSRegularExpression(pattern:)`
    /// → `_CFRegularExpressionCreate`, 2 bytes a character, once per rules-file pattern). Not ours
    /// to fix; without this, a long pattern in the `rules` target stops every fuzzing run.
    @_cdecl("__lsan_default_suppressions")
    public func leakSuppressions() -> UnsafePointer<CChar> {
        // A string literal's storage is a constant, NUL-terminated C string (the compiler's
        // guarantee, checked as far as the API allows).
        let text: StaticString = "leak:_CFRegularExpressionCreate\n"
        precondition(text.hasPointerRepresentation && text.isASCII)
        return UnsafeRawPointer(text.utf8Start).assumingMemoryBound(to: CChar.self)
    }

    /// libFuzzer's driver, for programs that bring their own `main`.
    @_silgen_name("LLVMFuzzerRunDriver")
    func runFuzzerDriver(
        _ argc: UnsafeMutablePointer<CInt>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
        _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
    ) -> CInt

    /// SwiftPM names an executable's entry point after its module on Linux; start libFuzzer from it.
    @_cdecl("widget_quota_fuzz_main")
    public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
        // Resolve the target before libFuzzer starts: an exit from inside a run is a crash to it,
        // and a mistyped name would leave a spurious crash file behind.
        _ = target
        var count = argc
        var arguments = argv
        return runFuzzerDriver(&count, &arguments) { data, size in fuzzOneInput(data, size) }
    }
#else
    @main
    struct FuzzReplay {
        static func main() {
            let args = Array(CommandLine.arguments.dropFirst())
            guard let name = args.first, let target = FuzzTarget(rawValue: name), args.count > 1 else {
                print("usage: widget-quota-fuzz TARGET FILE...   (targets: \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")))")
                exit(64)
            }
            for path in args.dropFirst() {
                guard let data = FileManager.default.contents(atPath: path) else {
                    print("\(path): cannot read")
                    exit(66)
                }
                target.run(Array(data))
                print("\(path): ok")
            }
        }
    }
#endif
