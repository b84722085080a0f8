/// Units of time, named once, as whole numbers (minutes of a day, seconds of an hour).
///
/// Times in seconds are `Double`s in the engine: `Double.secondsPerDay` and its siblings are
/// the same units as `Double`s.
package enum TimeUnits {
    package static let secondsPerMinute = 60
    package static let minutesPerHour = 60
    package static let hoursPerDay = 24
    package static let secondsPerHour = 3_600
    package static let minutesPerDay = 1_440
    package static let secondsPerDay = 86_400
}

extension Double {
    /// `TimeUnits.secondsPerMinute` as a Double (inlinable, so the optimiser folds it in every module).
    @inlinable package static var secondsPerMinute: Double { 60 }
    /// `TimeUnits.minutesPerHour` as a Double.
    @inlinable package static var minutesPerHour: Double { 60 }
    /// `TimeUnits.hoursPerDay` as a Double.
    @inlinable package static var hoursPerDay: Double { 24 }
    /// `TimeUnits.secondsPerHour` as a Double.
    @inlinable package static var secondsPerHour: Double { 3_600 }
    /// `TimeUnits.minutesPerDay` as a Double.
    @inlinable package static var minutesPerDay: Double { 1_440 }
    /// `TimeUnits.secondsPerDay` as a Double.
    @inlinable package static var secondsPerDay: Double { 86_400 }
}
