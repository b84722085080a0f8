import SwiftUI
import WidgetKit

struct Expense: Identifiable {
    let id = UUID()
    let amount: Double
}

final class ExpenseStore: ObservableObject {
    @Published var expenses: [Expense] = []

    var totalSpend: Double { expenses.reduce(0) { $0 + $1.amount } }

    func add(_ expense: Expense) {
        expenses.append(expense)
        // In your app, after any data change:
        let defaults = UserDefaults(suiteName: "group.com.yourapp.shared")
        defaults?.set(totalSpend, forKey: "currentMonthSpend")
        WidgetCenter.shared.reloadAllTimelines()
    }
}

struct AddExpenseView: View {
    @ObservedObject var store: ExpenseStore
    @State private var amount = ""
    var body: some View {
        Button("Add") { store.add(Expense(amount: Double(amount) ?? 0)) }
    }
}
