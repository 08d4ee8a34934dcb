/**
 * The service's own answer behind one main gave from what was loaded (`asOf`): a screen asks the same read again
 * `fresh` (main joins it to the request already on its way) and puts the answer in place — unless a later load
 * took over meanwhile, or the service still could not answer (the fresh read came from what was loaded too). A
 * failure leaves what was loaded, as of when it was read.
 */
export function whenFresh<T extends { asOf?: string | undefined }>(
  asked: Promise<T>,
  isLatest: () => boolean,
  apply: (answer: T) => void,
): void {
  void asked.then(
    (answer) => {
      if (isLatest() && !answer.asOf) apply(answer);
    },
    () => undefined,
  );
}
