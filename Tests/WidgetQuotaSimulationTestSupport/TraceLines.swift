import WidgetQuotaSimulation

/// An observer that keeps each event and its two times as a line of text, so that two runs'
/// traces compare event by event.
package struct TraceLines: SimulationObserver {
    package var lines: [String] = []

    package init(lines: [String] = []) {
        self.lines = lines
    }
    package mutating func record(_ event: SimulationEvent, local: Double, utc: Double) { lines.append("\(local) \(utc) \(event)") }
}
