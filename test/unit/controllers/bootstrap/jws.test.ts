import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computeDetachedSignature } from '../../../../controllers/bootstrap/jws.js';

test("detached signatures match Kubernetes' for the same content, id and secret", () => {
  const content = 'Hello from the other side. I must have called a thousand times.';
  const header = 'eyJhbGciOiJIUzI1NiIsImtpZCI6Impvc2h1YSJ9';
  assert.equal(
    computeDetachedSignature(content, 'joshua', 'my voice is my passcode'),
    `${header}..VShe2taLd-YTrmWuRkcL_8QTNDHYxQIEBsAYYiIj1_8`,
  );
  assert.equal(computeDetachedSignature('', 'joshua', 'my voice is my passcode'), `${header}..7Ui1ALizW4jXphVUB7xUqC9vLYLL9RZeOFfVLoB7Tgk`);
  assert.equal(computeDetachedSignature(content, 'joshua', ''), `${header}..UfkqvDGiIFxrMnFseDj9LYJOLNrvjW8aHhF71mvvAs8`);
});
