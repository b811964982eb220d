//! Progress that only goes forward, as MCP requires of a request's
//! progress notifications.

/// Keeps progress strictly increasing: a report that does not go past the
/// last one admitted (a retry starting over, a report overtaken by a later
/// one, a `NaN`) is dropped.
#[derive(Debug, Default)]
pub(super) struct Increasing {
    last: Option<f64>,
}

impl Increasing {
    /// Whether `done` goes past the last report admitted (and is now the
    /// last).
    pub(super) fn admits(&mut self, done: f64) -> bool {
        let ahead = done.is_finite() && self.last.is_none_or(|last| done > last);
        if ahead {
            self.last = Some(done);
        }
        ahead
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_only_goes_forward() {
        let mut increasing = Increasing::default();
        let sent: Vec<f64> = [0.0, 50.0, 50.0, 10.0, f64::NAN, 100.0, f64::INFINITY]
            .into_iter()
            .filter(|&done| increasing.admits(done))
            .collect();
        assert_eq!(sent, [0.0, 50.0, 100.0]);
    }
}
