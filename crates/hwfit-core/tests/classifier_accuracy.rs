//! The classifier against a labelled set of real Hugging Face model ids (`tests/data/labelled_models.csv`:
//! id, pipeline tag, family). Reports accuracy by name alone and with the pipeline tag; goals are
//! ≥95 % and 100 %.

use hwfit_core::{Classifier, ClassifierInput};

const LABELLED: &str = include_str!("../../../tests/data/labelled_models.csv");

struct Case<'a> {
    id: &'a str,
    task: &'a str,
    family: &'a str,
}

fn cases() -> Vec<Case<'static>> {
    LABELLED
        .lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let mut f = l.split(',');
            Case {
                id: f.next().unwrap(),
                task: f.next().unwrap(),
                family: f.next().unwrap(),
            }
        })
        .collect()
}

fn accuracy(classifier: &Classifier, with_task: bool) -> (f64, Vec<String>) {
    let cases = cases();
    let mut misses = Vec::new();
    for c in &cases {
        let mut req = ClassifierInput::named(c.id);
        if with_task {
            req.tasks = vec![c.task.to_string()];
        }
        let got = classifier.classify(&req).family.unwrap_or_else(|| "none".into());
        if got != c.family {
            misses.push(format!("{} ({}): expected {}, got {got}", c.id, c.task, c.family));
        }
    }
    let acc = 1.0 - misses.len() as f64 / cases.len() as f64;
    (acc, misses)
}

#[test]
fn labelled_set_has_at_least_150_distinct_real_ids() {
    let cases = cases();
    assert!(cases.len() >= 150, "{}", cases.len());
    let mut ids: Vec<&str> = cases.iter().map(|c| c.id).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), cases.len(), "duplicate ids");
    for family in ["embedding", "text_generation", "vision", "audio", "multimodal"] {
        assert!(cases.iter().filter(|c| c.family == family).count() >= 20, "{family}");
    }
}

#[test]
#[allow(clippy::print_stdout)]
fn accuracy_by_name_alone_and_with_task() {
    let classifier = Classifier::builtin();
    let (by_name, name_misses) = accuracy(&classifier, false);
    let (with_task, task_misses) = accuracy(&classifier, true);
    println!(
        "classifier accuracy on {} labelled models: by name {:.1} %, with task {:.1} %",
        cases().len(),
        by_name * 100.0,
        with_task * 100.0
    );
    for m in &name_misses {
        println!("  name miss: {m}");
    }
    assert!(task_misses.is_empty(), "with task: {task_misses:#?}");
    assert!(by_name >= 0.95, "by name {by_name:.3}: {name_misses:#?}");
}
