/**
 * Reading an `Outcome` in a test: the answer, failing the test on a
 * refusal, or the refusal, failing it on an answer.
 */
import type { Outcome, Refusal } from "../../src/contracts/mod.ts";

/** The answer; throws with the refusal's reason and message otherwise. */
export function answerOf<Answer>(outcome: Outcome<Answer, string>): Answer {
  if (outcome.kind === "refusal") {
    throw new Error(`refused ${outcome.value.reason}: ${outcome.value.message}`);
  }
  return outcome.value;
}

/** The refusal; throws with the answer otherwise. */
export function refusalOf<Reason extends string>(
  outcome: Outcome<unknown, Reason>,
): Refusal<Reason> {
  if (outcome.kind === "answer") {
    throw new Error(`expected a refusal, got ${JSON.stringify(outcome.value)}`);
  }
  return outcome.value;
}
