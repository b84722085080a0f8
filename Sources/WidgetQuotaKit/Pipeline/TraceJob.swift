import Foundation
import WidgetQuotaModel
import WidgetQuotaStudies

/// The job behind `trace`: the logs that simulated devices would write, as one text (trace
/// styles) or one file per device (Apple styles, which carry no device id).
public struct TraceJob: Sendable {
    package let generator: TraceGenerator
    /// Simulated devices.
    public let devices: Int

    /// The logs of `devices` users of `design` in `scenario`, in `style`.
    public init(scenario: Scenario, design: Design, devices: Int, style: TraceStyle) {
        self.generator = TraceGenerator(scenario: scenario, design: design, devices: devices, style: style)
        self.devices = devices
    }

    /// Every device's log in one stream, the header once, passed to `write` piece by piece.
    public func writeStream(_ write: (String) -> Void) {
        for i in 0..<devices { generator.write(device: i, header: i == 0) { write($0) } }
    }

    /// One file per device, named after the device, in `directory`.
    public func files(in directory: String) -> [(path: String, contents: String)] {
        (0..<devices).map { i in (directory + "/" + fileName(device: i), deviceLog(i)) }
    }

    /// The name of device `index`'s file (`direct-001.log`).
    package func fileName(device index: Int) -> String {
        generator.deviceName(index) + "." + generator.style.fileExtension
    }

    /// Device `index`'s whole log, with its header.
    package func deviceLog(_ index: Int) -> String {
        var text = ""
        generator.write(device: index, header: true) { text += $0 }
        return text
    }
}
