import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { negotiateOutput } from '../../../apiserver/endpoints/negotiation.js';
import { isApiError } from '../../../apiserver/api/status.js';

const VIEWS = ['meta.orch.io', 'meta.k8s.io'];
const PB = 'application/vnd.kubernetes.protobuf';
const yes = () => true;

describe('negotiateOutput', () => {
  it('picks the highest q-value it can produce, then the order given', () => {
    assert.equal(negotiateOutput(`application/json;q=0.5, ${PB}`, VIEWS, yes).encoding, 'protobuf');
    assert.equal(negotiateOutput(`${PB};q=0.5, application/json`, VIEWS, yes).encoding, 'json');
    assert.equal(negotiateOutput(`${PB}, application/json`, VIEWS, yes).encoding, 'protobuf');
    assert.equal(negotiateOutput(undefined, VIEWS, yes).encoding, 'json');
    assert.equal(negotiateOutput('*/*', VIEWS, yes).encoding, 'json');
  });

  it('answers in the protobuf media type asked for', () => {
    assert.equal(negotiateOutput(PB, VIEWS, yes).mediaType, PB);
    assert.equal(negotiateOutput('application/vnd.orch.protobuf', VIEWS, yes).mediaType, 'application/vnd.orch.protobuf');
  });

  it('offers protobuf only for kinds that have it (406 for a custom resource asked only in protobuf)', () => {
    let asked = 0;
    const no = () => {
      asked++;
      return false;
    };
    assert.equal(negotiateOutput(`${PB}, application/json`, VIEWS, no).encoding, 'json');
    assert.throws(
      () => negotiateOutput(PB, VIEWS, no),
      (e) => isApiError(e, 'NotAcceptable'),
    );
    assert.equal(negotiateOutput('application/json', VIEWS, no).encoding, 'json');
    assert.equal(asked, 2, 'asked only when protobuf is a candidate');
  });

  it('never serves a Table in protobuf; PartialObjectMetadata yes, in the group asked for', () => {
    assert.throws(
      () => negotiateOutput(`${PB};as=Table;v=v1;g=meta.k8s.io`, VIEWS, yes),
      (e) => isApiError(e, 'NotAcceptable'),
    );
    const partial = negotiateOutput(`${PB};as=PartialObjectMetadataList;v=v1beta1;g=meta.k8s.io`, VIEWS, yes);
    assert.deepEqual([partial.encoding, partial.view, partial.viewApiVersion], ['protobuf', 'metadata-list', 'meta.k8s.io/v1beta1']);
    const table = negotiateOutput('application/json;as=Table;v=v1;g=meta.orch.io', VIEWS, yes);
    assert.deepEqual([table.view, table.viewApiVersion], ['table', 'meta.orch.io/v1']);
  });

  it('skips Table ranges for a kind without a table form (a SelfSubjectAccessReview asked as=Table is 406)', () => {
    const asTable = 'application/json;as=Table;v=v1;g=meta.k8s.io';
    assert.throws(
      () => negotiateOutput(asTable, VIEWS, yes, false),
      (e) => isApiError(e, 'NotAcceptable'),
    );
    assert.equal(negotiateOutput(`${asTable}, application/json`, VIEWS, yes, false).view, 'object');
    assert.equal(negotiateOutput(asTable, VIEWS, yes, true).view, 'table');
    const partial = negotiateOutput('application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io', VIEWS, yes, false);
    assert.equal(partial.view, 'metadata');
  });
});
