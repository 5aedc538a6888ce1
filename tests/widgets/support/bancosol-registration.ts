/**
 * A complete, valid bancosol registration (pt_br, cpf, masked phone and CEP, SPEC §5) as the form
 * hands it over: masked fields hold their bare digits.
 */
export const VALID_BANCOSOL_REGISTRATION = {
  first_name: 'Ana',
  last_name: 'Souza',
  email: 'ana@example.com',
  password: 'Sunny-Day-42',
  confirm_password: 'Sunny-Day-42',
  dob: '1990-04-12',
  phone: '11987654321',
  nationalId: '52998224725',
  address: { street: 'Avenida Paulista', number: '1578', neighborhood: 'Bela Vista', city: 'São Paulo', state: 'SP', zipcode: '01310100' },
  marketing_opt_ins: { email: false, transactional: false, sms: false },
  pp: true,
};
