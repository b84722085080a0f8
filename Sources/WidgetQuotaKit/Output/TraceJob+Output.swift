extension TraceJob {
    /// The logs for `destination`: one stream (trace styles, or standard output), or one file per
    /// device in a folder (Apple styles, which carry no device id).
    package func output(to destination: JobOutput.Destination) -> JobOutput {
        guard case .file(let path) = destination, generator.style.isApple else {
            return JobOutput([.streamed({ write in writeStream(write) }, to: destination, announce: true)])
        }
        let announcement = "Wrote \(devices) file\(devices == 1 ? "" : "s") into \(path)\n"
        return JobOutput([.files(files(in: path), directory: path, announcement: announcement)])
    }
}
