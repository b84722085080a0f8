import Foundation

extension TraceJob {
    /// The logs for `destination`: one stream (trace styles, or standard output), or one file per
    /// device in a folder (Apple styles, which carry no device id).
    package func output(to destination: JobOutput.Destination) -> JobOutput {
        guard case .file(let path) = destination, generator.style.isApple else {
            return JobOutput([.streamed({ write in writeStream(write) }, to: destination, announce: true)])
        }
        // One swap of the folder: an earlier run's device files (of this design and style) that
        // this run does not write go, so the folder never mixes two runs; other files stay.
        var folder = OutputFiles(directory: path, ownNames: Self.deviceFiles(in: path, design: generator.design.name))
        // Each device's log is made as its file is written: 100,000 devices' logs never sit in
        // memory together.
        for i in 0..<devices {
            folder.add(fileName(device: i)) { [self] in deviceLog(i) }
        }
        return JobOutput([.folder(folder)])
    }

    /// The names in `directory` that a trace of `design` writes (`direct-001.log`, in any Apple
    /// style's extension); none when the folder cannot be listed.
    package static func deviceFiles(in directory: String, design: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { name in
            let prefix = design + "-"
            guard name.hasPrefix(prefix), let dot = name.lastIndex(of: "."),
                dot >= name.index(name.startIndex, offsetBy: prefix.count)
            else { return false }
            let number = name[name.index(name.startIndex, offsetBy: prefix.count)..<dot]
            let ext = name[name.index(after: dot)...]
            return number.count >= 3 && number.allSatisfy(\.isASCII) && number.allSatisfy(\.isNumber)
                && ["ndjson", "json", "log"].contains(String(ext))
        }
    }
}
