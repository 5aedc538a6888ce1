import type { FormProps } from '@rjsf/core';
import type { RegistryFieldsType, RegistryWidgetsType } from '@rjsf/utils';
import { OptInListField } from './fields/OptInListField';
import { BaseInputTemplate } from './templates/BaseInputTemplate';
import { ErrorListTemplate } from './templates/ErrorListTemplate';
import { FieldErrorTemplate } from './templates/FieldErrorTemplate';
import { FieldTemplate } from './templates/FieldTemplate';
import { ObjectFieldTemplate } from './templates/ObjectFieldTemplate';
import { SubmitButton } from './templates/SubmitButton';
import { CardNumberWidget } from './inputs/CardNumberWidget';
import { CheckboxWidget } from './inputs/CheckboxWidget';
import { CountryWidget } from './inputs/CountryWidget';
import { DobWidget } from './inputs/DobWidget';
import { MaskedTextWidget } from './inputs/MaskedTextWidget';
import { OfferCategoriesWidget } from './inputs/OfferCategoriesWidget';
import { PasswordWidget } from './inputs/PasswordWidget';
import { PrivacyPolicyWidget } from './inputs/PrivacyPolicyWidget';
import { SelectWidget } from './inputs/SelectWidget';

/**
 * The form engine's registry (DESIGN "widgets/"): the names the translator writes in a uiSchema
 * (`ui:widget`, `ui:field`) and the templates every field is drawn with. Module constants, so RJSF
 * sees the same objects on every render.
 */
export const FORM_WIDGETS: RegistryWidgetsType = {
  MaskedTextWidget,
  DobWidget,
  PasswordWidget,
  PrivacyPolicyWidget,
  CountryWidget,
  OfferCategoriesWidget,
  CardNumberWidget,
  // RJSF's own names, so `ui:widget: "select"`, `"checkbox"` and `"password"` get ours too.
  SelectWidget,
  CheckboxWidget,
};

export const FORM_FIELDS: RegistryFieldsType = {
  OptInListField,
};

export const FORM_TEMPLATES: NonNullable<FormProps['templates']> = {
  BaseInputTemplate,
  FieldTemplate,
  FieldErrorTemplate,
  ErrorListTemplate,
  ObjectFieldTemplate,
  ButtonTemplates: { SubmitButton },
};

export const FORM_REGISTRY = { widgets: FORM_WIDGETS, fields: FORM_FIELDS, templates: FORM_TEMPLATES } as const;
