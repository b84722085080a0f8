import Testing
import WidgetQuotaSimulation
import WidgetQuotaSupport

@Suite("Time units")
struct TimeUnitsTests {
    @Test("the Double units equal the whole ones, and each follows from the smaller ones")
    func unitsAgree() {
        #expect(Double.secondsPerMinute == Double(TimeUnits.secondsPerMinute))
        #expect(Double.minutesPerHour == Double(TimeUnits.minutesPerHour))
        #expect(Double.hoursPerDay == Double(TimeUnits.hoursPerDay))
        #expect(Double.secondsPerHour == Double(TimeUnits.secondsPerHour))
        #expect(Double.minutesPerDay == Double(TimeUnits.minutesPerDay))
        #expect(Double.secondsPerDay == Double(TimeUnits.secondsPerDay))
        #expect(TimeUnits.secondsPerHour == TimeUnits.secondsPerMinute * TimeUnits.minutesPerHour)
        #expect(TimeUnits.minutesPerDay == TimeUnits.minutesPerHour * TimeUnits.hoursPerDay)
        #expect(TimeUnits.secondsPerDay == TimeUnits.secondsPerHour * TimeUnits.hoursPerDay)
    }

    @Test("the day-factor table has one level per value of the bits that pick it")
    func dayFactorLevels() {
        #expect(SimulationModel.dayFactorLevels == 1 << SimulationModel.dayFactorLevelBits)
    }
}
